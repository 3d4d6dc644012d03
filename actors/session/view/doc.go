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
// that write. A fact's View may be held back while more messages wait
// behind it (Records.Publish's later, published on the session's Owed):
// the read side counts a message shown only once a View shows it.
//
// The View's records are rendered here, by pure functions of the model
// and of each pane's facts (render.go), and Build makes a whole View from
// the model (build.go). Records (records.go), which the session holds,
// keeps what the session knows of each terminal beside the topology (its
// actor, the facts its pane told, what the agents actor shows of its
// agent, its size) and does the rest of the read side's work for it: the
// *Info records and event fields of the session's answers and events (it
// is the model operations' model.Env), the panes' sizes for the tab
// actors, the render cache (a pane's records are rendered again only when
// what they show changed), the publish after each commit, the agents
// actor's placement, and a write's pane resolved to its record. It sends
// no message and changes no topology; the session calls it at fixed
// points of a message and undoes a record it put or dropped when the
// transaction is discarded. Nothing here imports the session.
//
// The View also resolves every id form the model does (resolve.go:
// former ids after a move, positions, Herdr's legacy forms), so actors
// other than the session resolve ids from it: the bus answers events.wait
// that way (wait.go, events.ReadSide), once the session has handled every
// message sent to it before the wait came (ReadSide.AfterCaughtUp).
package view
