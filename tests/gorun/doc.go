// Package gorun is one area of the end-to-end suite (tests/doc.go):
// herdr run from a checkout with go run, and the binary path
// its panes get.
package gorun
