// Package screen is one area of the end-to-end suite (tests/doc.go):
// what the interactive client draws and takes: rendering,
// input, copy, graphics and the terminal commands.
package screen
