// Package history is one area of the end-to-end suite (tests/doc.go):
// pane history: scrollback written beside the session and
// restored.
package history
