// Package handoff is one area of the end-to-end suite (tests/doc.go):
// live handoff: every pane, its program still running, handed
// to a new server process, and its edges.
package handoff
