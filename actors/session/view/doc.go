// Package view is the session's read side: the View, a snapshot of the
// session's read model (every workspace's, tab's, pane's and agent's
// record already rendered, with what the agents actor shows of each
// agent) that the session publishes after each change, and the one path
// of every call that only reads it or only needs a target resolved in it.
//
// Each of the session's reads is one function of a View (reads.go), and
// every call the table gives the agents actor, a workspace's, a tab's or a
// pane's actor is routed by one (route.go): resolved, every id form the
// model accepts and agent names included, into the message its owner
// takes, or answered with the error its id earns (the same codes and
// words the model's resolvers give). A connection routes on its own
// goroutine from the newest View (ReadSide, a kit.Router), never waiting
// in the session's mailbox behind a write, a restore or a flood of pane
// facts; the session routes the same calls other actors send it from its
// own newest View, with the same functions. The ReadSide counts the
// session's mailbox (it is its middleware): a call that finds a message
// sent to the session before it still waiting waits here
// (AfterCaughtUp, wait.go) and is routed from the first View published
// once the session has handled it, so a read after a write's answer sees
// that write.
//
// The View's records are rendered here, by pure functions of the model
// and of each pane's facts (render.go), which the session's own answers
// use too, and Build makes a whole View from the model (build.go): the
// session calls it after a commit and publishes the result
// (actors/session/reads.go); nothing here imports the session.
//
// The View also resolves every id form the model does (resolve.go:
// former ids after a move, positions, Herdr's legacy forms), so actors
// other than the session resolve ids from it: the bus answers events.wait
// that way (wait.go, events.ReadSide), once the session has handled every
// message sent to it before the wait came (ReadSide.AfterCaughtUp).
package view
