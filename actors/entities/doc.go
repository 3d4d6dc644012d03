// Package entities is the supervisor of the workspace and tab actors, a
// child of the server (of the session when the session starts its own). The session decides which workspaces and tabs
// exist (topology); once a message that made or removed one commits, it
// tells this actor to start (StartWorkspace, StartTab) or stop (Retire)
// its actor, and hands it each tab's new pane sizes (Arrange) and each
// workspace's or tab's own calls (Deliver, from a connection or an actor
// that resolved the target from the session's read side), which it passes on to the entity's actor in the order they
// came. The entity actors tell it their changes (wsactor.Changed,
// tabactor.Changed, with a growing revision); it drops one older than the
// record it holds (from an actor that failed after a newer one was taken,
// or one retired), takes the rest as the record a failed actor restarts
// from (HandleFailure, with its mailbox kept so the calls queued behind
// the one that broke it are still answered), and passes them on to the
// session (the seed's Session), before it sends the answer of the call
// that made the change, which the Changed carries: the session holds the
// change before the caller can ask again, and takes what it is told.
package entities
