// Package lossless is one area of the end-to-end suite (tests/doc.go):
// a live handoff loses nothing: every pane's screen,
// scrollback and program, byte for byte.
package lossless
