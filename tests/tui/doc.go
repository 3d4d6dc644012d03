// Package tui is one area of the end-to-end suite (tests/doc.go):
// the interactive client on a PTY: attaching, detaching,
// splitting, its figures beside tmux.
package tui
