// Package tui is one area of the end-to-end suite (tests/doc.go):
// the interactive client on a PTY: attaching, detaching,
// splitting, its figures beside tmux, keys in the form a pane's program
// asked for (shift+enter as CSI u only to one that pushed the kitty flag).
package tui
