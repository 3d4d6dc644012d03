// Package worktrees is the worktrees actor: it does the git work of the
// worktree.* methods and keeps their calls while it runs, on goroutines of
// its own (one job at a time per source workspace; any number for folders
// no workspace holds), never in Receive.
//
// The session resolves a call's source (the named or focused workspace, or
// a folder) and forwards it here with the caller as the sender. Git's
// answer goes back to the session as one typed message carrying the call —
// OpenCheckout, CloseCheckout or Listed — whenever the topology must change
// or be read (a workspace for a checkout, closing the workspace of a
// removed one, which checkouts are open); the session applies it as one
// change and answers the caller, or refuses (the source workspace closed
// meanwhile). A git failure is answered here. Either way each call is
// answered exactly once.
//
// A call's trust_repository gives its job a workspace.Trust: the
// repositories git refuses as another user's are trusted by path
// (-c safe.directory) for that job's git commands only.
package worktrees
