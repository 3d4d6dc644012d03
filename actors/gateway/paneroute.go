package gateway

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Routes through the read side: the session's reads, and the calls the
// table gives the agents actor, a workspace's, a tab's or a pane's actor,
// are routed from the session's newest published View (kit.Router), on
// the connection's goroutine, never through the session's mailbox: a read
// is answered there, errors included, and any other call goes straight
// to its owner's actor with what it needs (the pane's ids, the agent's
// terminal, the workspace's record). While the session has not yet
// handled a message sent to it before the call (a write the call must
// see), the call waits in the read side (AfterCaughtUp) and is routed
// from the first View published after it.
//
// A pane's own calls by explicit id also remember the pane's actor (a
// route): the next call naming that id goes to the pane as a kit.PaneCall
// at once, which the pane takes while the id is still its own. A pane
// that lost the id answers kit.NotThisPane, a closed one comes back as a
// dead letter; the connection then forgets the route and routes the call
// from the read side again.

// maxPaneRoutes bounds a connection's routes; past it they start over.
const maxPaneRoutes = 64

// paneRoutes are a connection's known panes, the call in flight sent
// straight to one, and the call waiting for the session to catch up.
type paneRoutes struct {
	byID map[string]paneRoute
	// sent is the current call when it went to a pane directly, with what
	// a second routing needs.
	sent *directCall
	// waiting is the current call while it waits in the read side.
	waiting *kit.Call
}

type paneRoute struct {
	pid    *actor.PID
	paneID string // the pane's current id when the route was learnt
	// post, once the pane told it (kit.PaneRoute), posts to the pane with
	// its mailbox run on the connection's goroutine when idle (kit.Inline).
	post func(send func())
}

type directCall struct {
	call   *kit.Call
	m      protocol.Method
	id     string // the id the call names
	within time.Duration
}

// caughtUp tells the connection the session has caught up with its
// waiting call.
type caughtUp struct{ call *kit.Call }

// routesHere reports whether the read side routes the call: a method it
// routes, for this machine, with its gate open (a closed one is the
// session's to refuse).
func (c *conn) routesHere(m protocol.Method, call *kit.Call) bool {
	return c.opts.Reads != nil && c.opts.Reads.Routes(m) && !protocol.ToMachines(call.Params) &&
		(m.Gate == "" || c.opts.GateOpen != nil && c.opts.GateOpen(m.Gate))
}

func (c *conn) owners() kit.Owners {
	return kit.Owners{Agents: c.opts.AgentsActor, Entities: c.opts.Entities}
}

// routeNow routes call from the read side if it can say now: ok false
// means it waits, and a caughtUp comes when the session caught up.
func (c *conn) routeNow(m protocol.Method, call *kit.Call) (r kit.Routed, ok bool) {
	if r, ok = c.opts.Reads.Route(call, m, c.owners()); ok {
		return r, true
	}
	root, self := c.root, c.self
	if c.opts.Reads.AfterCaughtUp(func() { root.Send(self, &caughtUp{call: call}) }) {
		return c.opts.Reads.RouteNow(call, m, c.owners()), true
	}
	return r, false
}

// known is the pane route of a pane's own call by explicit id, if one
// was learnt.
func (c *conn) known(m protocol.Method, call *kit.Call) (paneRoute, string, bool) {
	id, ok := routable(m, call)
	if !ok {
		return paneRoute{}, "", false
	}
	r, ok := c.routes.byID[id]
	return r, id, ok
}

// sendRouted sends the current call where the read side routed it (r
// holds no answer), or waits for the session to catch up (ok false).
func (c *conn) sendRouted(ctx actor.Context, m protocol.Method, call *kit.Call, r kit.Routed, ok bool) {
	within := kit.Deadline(call.Params, c.opts.CallDeadline)
	if route, id, known := c.known(m, call); known {
		c.routes.sent = &directCall{call: call, m: m, id: id, within: within}
		msg := &kit.PaneCall{Call: call, PaneID: route.paneID}
		if route.post == nil {
			call.Route = true // the pane tells its post with its route
			c.calls.SendCarried(ctx, route.pid, call, msg, within)
			return
		}
		// The pane's mailbox runs here when idle: a keystroke wakes no
		// pane goroutine, and its answer is written by this one.
		route.post(func() { c.calls.SendCarried(ctx, route.pid, call, msg, within) })
		return
	}
	if !ok {
		c.routes.waiting = call
		return
	}
	c.deliver(ctx, m, call, r)
}

// deliver sends the current call as the read side routed it.
func (c *conn) deliver(ctx actor.Context, m protocol.Method, call *kit.Call, r kit.Routed) {
	if r.Reply != nil {
		c.finish(ctx, r.Reply)
		return
	}
	if r.To == nil {
		c.finish(ctx, kit.Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s (owner %s)", call.Method, m.Owner)))
		return
	}
	if id, ok := routable(m, call); ok && r.PaneID != "" {
		c.learn(id, r)
		call.Route = true // the pane tells its post with its route
	}
	c.calls.SendCarried(ctx, r.To, call, r.Msg, kit.Deadline(call.Params, c.opts.CallDeadline))
}

// routable is a pane's own call by explicit id whose route may be kept:
// one whose answer comes soon or waits (not a frames stream).
func routable(m protocol.Method, call *kit.Call) (string, bool) {
	if m.Owner != protocol.OwnerPane || m.Target != protocol.TargetPane ||
		m.Shape != protocol.ShapeAnswer && m.Shape != protocol.ShapeWait {
		return "", false
	}
	t, ok := call.Params.(protocol.Targeted)
	if !ok || t.TargetID() == "" {
		return "", false
	}
	return t.TargetID(), true
}

// learn keeps the route of the pane a call naming id was routed to.
func (c *conn) learn(id string, r kit.Routed) {
	if c.routes.byID == nil || len(c.routes.byID) >= maxPaneRoutes {
		c.routes.byID = map[string]paneRoute{}
	}
	c.routes.byID[id] = paneRoute{pid: r.To, paneID: r.PaneID}
}

// learnRoute keeps the post a pane told with its route, while its call is
// the current one and the route is still the one the call went by.
func (c *conn) learnRoute(r *kit.PaneRoute) {
	if c.current == nil || r.PID == nil || r.Post == nil {
		return
	}
	for id, known := range c.routes.byID {
		if known.pid.Equal(r.PID) && known.paneID == r.PaneID {
			known.post = r.Post
			c.routes.byID[id] = known
		}
	}
}

// caughtUpWith routes the waiting call once the session caught up.
func (c *conn) caughtUpWith(ctx actor.Context, msg *caughtUp) {
	if c.current == nil || c.routes.waiting != msg.call {
		return // answered meanwhile (a deadline) or the connection moved on
	}
	c.routes.waiting = nil
	m, _ := protocol.Lookup(msg.call.Method)
	c.deliver(ctx, m, msg.call, c.opts.Reads.RouteNow(msg.call, m, c.owners()))
}

// resend routes the current call from the read side again after its pane
// refused it (NotThisPane) or was gone (a dead letter), and reports
// whether it did: false when the call did not go to a pane directly.
func (c *conn) resend(ctx actor.Context) bool {
	d := c.routes.sent
	if d == nil {
		return false
	}
	c.routes.sent = nil
	delete(c.routes.byID, d.id)
	r, ok := c.routeNow(d.m, d.call)
	c.sendRouted(ctx, d.m, d.call, r, ok)
	return true
}
