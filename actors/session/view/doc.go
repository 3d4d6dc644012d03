// Package view is the session's read side: the View, a snapshot of the
// session's read model (every workspace's, tab's, pane's and agent's
// record already rendered) that the session publishes after each change,
// and the reads answered from the newest one on the caller's goroutine
// (ReadSide, an api.Reader the gateway's connections hold), never waiting
// in the session's mailbox behind a write, a restore or a flood of pane
// facts. A read answers only what it resolves exactly as the session
// would (a current id); anything else (a legacy or former id, an agent's
// name, an unknown id) is left to the session (nil), which answers it as
// before, errors included. The View's records are rendered here, by
// pure functions of the model and of each pane's facts (render.go), which
// the session's own answers use too, and Build makes a whole View from the
// model (build.go): the session calls it after a commit and publishes the
// result (actors/session/reads.go); nothing here imports the session.
//
// The View also resolves every id form the model does (resolve.go:
// former ids after a move, positions, Herdr's legacy forms), so actors
// other than the session resolve ids from it: the bus answers events.wait
// that way (wait.go, events.ReadSide), once the session has handled every
// message sent to it before the wait came (ReadSide.AfterCaughtUp).
package view
