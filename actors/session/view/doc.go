// Package view is the session's read side: the View, a snapshot of the
// session's read model (every workspace's, tab's, pane's and agent's
// record already rendered) that the session publishes after each change,
// and the reads answered from the newest one on the caller's goroutine
// (ReadSide, an api.Reader the gateway's connections hold), never waiting
// in the session's mailbox behind a write, a restore or a flood of pane
// facts. A read answers only what it resolves exactly as the session
// would (a current id); anything else (a legacy or former id, an agent's
// name, an unknown id) is left to the session (nil), which answers it as
// before, errors included. The session builds and publishes Views
// (actors/session/reads.go); nothing here imports it.
package view
