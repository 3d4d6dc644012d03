// Package fleetagents is one area of the end-to-end suite (tests/doc.go):
// agents across the fleet: prompts, waits, events and plugin
// hooks for remote agents.
package fleetagents
