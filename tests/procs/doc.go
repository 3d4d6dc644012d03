// Package procs is one area of the end-to-end suite (tests/doc.go):
// the processes a server starts and ends: a pane's children,
// descriptor limits, signals.
package procs
