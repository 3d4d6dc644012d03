package kit

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// SessionRoutes is how an actor other than a connection (tasks, loop,
// dispatcher, buffers, machines, review, a browser's connection) makes
// the calls it would send the session: the session's reads, and the
// calls the table gives the agents actor, a workspace's, a tab's or a
// pane's actor, are routed from the read side as a connection routes
// them, never entering the session's mailbox; writes, calls for another
// machine and gated calls whose gate is not known open go to the
// session, which answers or refuses them.
type SessionRoutes struct {
	Reads  Router
	Owners Owners
	// GateOpen says whether a table entry's Gate is on; nil: a gated call
	// goes to the session, which knows.
	GateOpen func(gate string) bool
}

// Send sends call so that its answer reaches sender: routed from the read
// side (r nil: never), else to session. A call that finds a message sent
// to the session before it still waiting (a write it must see) is routed
// once the session has handled it.
func (r *SessionRoutes) Send(ctx actor.SenderContext, session *actor.PID, call *Call, sender *actor.PID) {
	m, ok := protocol.Lookup(call.Method)
	if !ok || !r.routes(m, call) {
		ctx.RequestWithCustomSender(session, call, sender)
		return
	}
	if routed, ok := r.Reads.Route(call, m, r.Owners); ok {
		deliverRouted(ctx, routed, call, m, sender)
		return
	}
	root := ctx.ActorSystem().Root
	// The wait ends on the session's goroutine: the routing (a read may
	// render many records) runs on one of its own.
	later := func() {
		defer RecoverTo(root, sender, call.Method)
		deliverRouted(root, r.Reads.RouteNow(call, m, r.Owners), call, m, sender)
	}
	if r.Reads.AfterCaughtUp(func() { go later() }) {
		later()
	}
}

// routes reports whether the read side routes call, a call of m.
func (r *SessionRoutes) routes(m protocol.Method, call *Call) bool {
	return r != nil && r.Reads != nil && r.Reads.Routes(m) && !protocol.ToMachines(call.Params) &&
		(m.Gate == "" || r.GateOpen != nil && r.GateOpen(m.Gate))
}

// deliverRouted sends call where the read side routed it, or its answer.
func deliverRouted(ctx actor.SenderContext, routed Routed, call *Call, m protocol.Method, sender *actor.PID) {
	switch {
	case routed.Reply != nil:
		ctx.Send(sender, routed.Reply)
	case routed.To == nil:
		ctx.Send(sender, Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s (owner %s)", call.Method, m.Owner)))
	default:
		ctx.RequestWithCustomSender(routed.To, routed.Msg, sender)
	}
}

// RecoverTo, deferred on a goroutine that answers to about method outside
// any actor (no guard there), answers a panic internal_error and logs it
// at error, rather than ending the server.
func RecoverTo(root *actor.RootContext, to *actor.PID, method string) {
	if p := recover(); p != nil {
		root.Logger().Error("panic answering a call", "method", method, "panic", p)
		root.Send(to, Fail(protocol.Errorf(protocol.CodeInternal, "internal error: %s: %v", method, p)))
	}
}
