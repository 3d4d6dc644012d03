// Package review is the review actor (issue 49): worktree.diff, and the
// comments on a worktree's diff kept with its task or workspace
// (review.comment, review.list), sent back to its agent as one prompt
// (review.send) and settled by review.accept (a task done; a merge into
// the base, git merge --no-ff, or the push command for a pull request).
//
// Every git command and every call to the session or the tasks actor runs
// on a job's goroutine (an asker awaits each answer there), never in
// Receive; the job's result comes back as one message, which the actor
// applies to its threads and answers. A send or accept of one subject runs
// one at a time (review_busy). A task is its worker's worktree; a
// workspace a task's worker runs in is that task; another worktree
// workspace is its checkout (so its comments outlive the workspace's id).
//
// A send to an agent at work goes into the agent's queue (agent.queue.add,
// actors/loop), which types it when the agent's turn ends, never into a
// blocked agent; the actor follows agent_queue_changed to mark the
// comments sent (delivered) or pending again (the queue cleared).
// The threads are kept in review.json beside session.json (store.go).
package review
