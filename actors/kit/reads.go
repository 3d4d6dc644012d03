package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Router is the session's read side as a connection uses it: it answers
// the session's reads from the newest snapshot the session published, and
// resolves from it the target of every call the table gives the agents
// actor, a workspace's, a tab's or a pane's actor, on the caller's
// goroutine, never entering the session's mailbox. Every answer is
// whole, errors included (not found, no active pane).
type Router interface {
	// Routes reports whether the read side routes calls of m.
	Routes(m protocol.Method) bool
	// Route routes call from the newest snapshot. ok is false while a
	// message sent to the session before the call is still waiting (a
	// write the call must see): the caller waits with AfterCaughtUp, and
	// then routes with RouteNow.
	Route(call *Call, m protocol.Method, o Owners) (r Routed, ok bool)
	// RouteNow routes call from the newest snapshot, caught up or not.
	RouteNow(call *Call, m protocol.Method, o Owners) Routed
	// AfterCaughtUp runs f (on the session's goroutine: f only sends a
	// message) once the session has handled every message sent to it so
	// far; true means it has already, and f is not kept.
	AfterCaughtUp(f func()) bool
}

// Owners are the actors a routed call may go on to besides a pane's (the
// snapshot holds each pane's actor).
type Owners struct {
	Agents   *actor.PID // the agents actor
	Entities *actor.PID // the workspace and tab actors' supervisor
}

// Routed is where a call goes: answered (Reply), or Msg, which carries
// the call, sent to To, which answers the caller.
type Routed struct {
	Reply *Reply
	To    *actor.PID
	Msg   any
	// PaneID is the pane's current id when To is a pane's actor.
	PaneID string
}
