// Package worktrees is the worktrees actor: it does the git work of the
// worktree.* methods and keeps their calls while it runs, on goroutines of
// its own (one job at a time per source workspace; any number for folders
// no workspace holds), never in Receive.
//
// The gateway sends the calls here. A call's source (the named or focused
// workspace's checkout or folder, or a folder) is resolved from the
// session's newest View, once that View shows every message the session
// was sent before the call (calls.go), as the session would resolve it.
// Git's answer goes to the session as one typed message carrying the call
// — OpenCheckout or CloseCheckout — when the topology must change (a
// workspace for a checkout, closing the workspace of a removed one); the
// session applies it as one change and answers the caller, or refuses
// (the source workspace closed meanwhile). worktree.list is answered
// here, the checkouts a workspace is open on marked from the View. A git
// failure is answered here. Either way each call is answered exactly once.
//
// A call's trust_repository gives its job a workspace.Trust: the
// repositories git refuses as another user's are trusted by path
// (-c safe.directory) for that job's git commands only.
package worktrees
