// Package kit holds the two messages every request travels in inside the
// server: a decoded Call going from a connection to the actor that owns the
// target, and the Reply coming back to the connection — Timers, the one
// way actors schedule messages to themselves, and the two dispatchers that
// replace protoactor's goroutine per burst: Worker (one goroutine kept for
// one actor) and Pool (a few shared by every pane), Inline, which lets a
// poster run an idle actor's mailbox on its own goroutine (a keystroke's
// call to its pane, a pane's frame to its screen connection), and Spare,
// goroutines kept, stacks grown, for connections' readers — and WriteNow, the
// write without waiting with which an actor sends a small answer itself
// and leaves only what a full descriptor refuses to its writer goroutine —
// Guarded, the receive guard every actor's props carry (a panic answers
// the call it held internal_error, once, then goes to the supervisor;
// GuardActor, the same as a wrapper of the actor, for the actors there
// is one of per pane: no context extras),
// with Unhandled for what a Receive does not handle; InFlight, a
// connection's one call in flight with its safety deadline; and Registry,
// one owner's handlers keyed by method, which the server checks against
// the method table's owners when it starts; Router, what a connection
// answers the session's reads with, and routes the calls whose target the
// session's ids name by, without a hop through the session's mailbox (its
// published read model), and SessionRoutes, the same routing for the
// actors that call the session as a client would; Caller, the child that
// carries one call an actor (or, through Ask, a goroutine) makes as a
// client would, and answers its parent once: the reply, a timeout or the
// owner gone.
// It is a leaf package so
// the gateway, the session and the panes can all speak it.
package kit
