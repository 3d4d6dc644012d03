// Package events is one area of the end-to-end suite (tests/doc.go):
// waiting on events, output and agent states.
package events
