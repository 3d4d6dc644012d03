// Package review is one area of the end-to-end suite (tests/doc.go):
// review of a worktree's branch (worktree.diff, review.*), with a real git
// repository, a worktree workspace and a fake agent.
package review
