// Package entities is the supervisor of the workspace and tab actors, a
// child of the server (of the session when the session starts its own). The session decides which workspaces and tabs
// exist (topology); once a message that made or removed one commits, it
// tells this actor to start (StartWorkspace, StartTab) or stop (Retire)
// its actor, and hands it each tab's new pane sizes (Arrange) and each
// workspace's or tab's own calls (Deliver, from a connection that
// resolved the target from the session's read side, else from the
// session), which it passes on to the entity's actor in the order they
// came. The entity actors tell the
// session their changes directly (their Seed's Session), so a change is in
// the session before the call that made it is answered; the session tells
// this actor the record it took (Record), which a failed actor restarts
// from (HandleFailure), with its mailbox kept so the calls queued behind
// the one that broke it are still answered.
package entities
