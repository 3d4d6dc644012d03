// Package dispatch is one area of the end-to-end suite (tests/doc.go):
// the task board and its dispatcher, and agents in worktrees.
package dispatch
