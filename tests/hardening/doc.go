// Package hardening is one area of the end-to-end suite (tests/doc.go):
// bad input, hostile peers and exhausted resources at the
// gateway, in panes, git and worktrees.
package hardening
