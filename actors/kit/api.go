package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Call is one decoded request. Params has already been validated.
type Call struct {
	ID     string
	Method string
	Params protocol.Params
	// Route: the caller keeps the routes of panes (a connection): the pane
	// answering this call, which came through the session, tells it its
	// own (PaneRoute) before it answers.
	Route bool
}

// A connection sends the calls of a pane whose actor it learnt from the
// session's read side to that actor at once (PaneCall), without routing
// them again: the pane answers a PaneCall naming an id that is no longer
// its own (a pane moved or renumbered) with NotThisPane, a closed pane's
// dead letter comes back, and either way the connection forgets the route
// and routes the call from the read side again.
type (
	// PaneCall is a call sent straight to the pane PaneID named.
	PaneCall struct {
		Call   *Call
		PaneID string
	}
	// PaneRoute tells a caller which actor serves a pane.
	PaneRoute struct {
		PaneID string
		PID    *actor.PID
		// Post, when set, posts to the pane with its mailbox run on the
		// caller's goroutine if it is idle (Inline.Post).
		Post func(send func())
	}
	// NotThisPane answers a PaneCall whose id is not the pane's.
	NotThisPane struct{ Call *Call }
)

// Reply answers exactly one Call: either Result or Err is set.
type Reply struct {
	Result protocol.Result
	Err    error
	// For is the call answered, when the answer may come late or twice
	// (a guard answering a call whose handler panicked): a connection
	// drops it unless that call is the one it waits for.
	For *Call
}

// OK is the reply of methods that acknowledge with {"type":"ok"}.
func OK() *Reply { return &Reply{Result: protocol.OK{}} }

// Fail wraps an error as a reply.
func Fail(err error) *Reply { return &Reply{Err: err} }

// Done wraps a result as a reply.
func Done(r protocol.Result) *Reply { return &Reply{Result: r} }

// OkOrFail is OK for a nil error, else the error.
func OkOrFail(err error) *Reply {
	if err != nil {
		return Fail(err)
	}
	return OK()
}

// CarriedCall implements CallCarrier.
func (c *PaneCall) CarriedCall() *Call { return c.Call }
