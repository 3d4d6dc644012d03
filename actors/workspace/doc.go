// Package workspace is the workspace actor: one per workspace, a child of
// the session. The session owns the topology (which workspaces exist, their
// order, tabs and focus); the workspace actor owns what is not topology: its
// custom label and the tokens hooks report for it (with their sequence
// books and TTL timers), and workspace.git_status (the sidebar's branch
// and marks), read by git on its own goroutines. The git work of the
// worktree.* methods is the worktrees actor's; git_review.go holds the
// bounded git reads of the review actor.
//
// Its supervisor (actors/entities) hands it the workspace's own methods
// with a snapshot of the workspace's record. A call that changes it is
// answered through the supervisor: the actor tells it a Changed with a
// growing revision and the answer, and the supervisor passes the change on
// to the session (dropping a stale one) before it answers, so the
// session's read model holds the change before the caller can ask again.
// The session publishes the event, because only it has the whole record
// (position, focus, counts, agent roll-up).
package workspace
