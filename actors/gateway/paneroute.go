package gateway

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Pane routes: the calls a pane answers itself (pane.send_text,
// pane.wait_for_output, pane.read, …) go to the pane directly
// (kit.PaneCall), not through the session: the connection finds the
// pane's actor in the session's newest read model (kit.PaneFinder, every
// id form the session resolves), else sends the call through the session,
// which resolves the id and has the pane tell the connection its actor
// (kit.PaneRoute) for the next calls naming that id.
// A pane that no longer has the id answers kit.NotThisPane, a closed one
// comes back as a dead letter; the connection then forgets the route and
// sends the call through the session after all, so the client gets one
// answer, the session's.

// maxPaneRoutes bounds a connection's routes; past it they start over.
const maxPaneRoutes = 64

// paneRoutes are a connection's known panes, and the call in flight sent
// straight to one.
type paneRoutes struct {
	byID map[string]paneRoute
	// sent is the current call when it went to a pane directly, with what
	// a second try through the session needs.
	sent *directCall
}

// paneRoute is a pane's actor and, when it told one, how to post to it
// with its mailbox run on the connection's goroutine (kit.PaneRoute).
type paneRoute struct {
	pid  *actor.PID
	post func(send func())
}

type directCall struct {
	call   *kit.Call
	paneID string
	within time.Duration // the call's deadline
}

// routable reports whether m is a pane's own method addressed by an
// explicit pane id, one the session only resolves and forwards: a gated
// one (pane.graphics.*) only while its switch is on, since the session
// answers it feature_disabled otherwise.
func (c *conn) routable(m protocol.Method) bool {
	return m.Owner == protocol.OwnerPane && m.Target == protocol.TargetPane &&
		(m.Gate == "" || c.opts.GateOpen != nil && c.opts.GateOpen(m.Gate)) &&
		(m.Shape == protocol.ShapeAnswer || m.Shape == protocol.ShapeWait)
}

// sendCall sends the current call: to its pane when the route is known,
// else to owner, asking for the route when it may be learnt.
func (c *conn) sendCall(ctx actor.Context, m protocol.Method, owner *actor.PID, call *kit.Call) {
	if c.sendToAgents(ctx, m, call) || c.sendToEntity(ctx, m, call) {
		return
	}
	within := kit.Deadline(call.Params, c.opts.CallDeadline)
	if c.routable(m) && !protocol.ToMachines(call.Params) {
		if t, ok := call.Params.(protocol.Targeted); ok && t.TargetID() != "" {
			id := t.TargetID()
			paneID, r := id, c.routes.byID[id]
			if r.pid == nil {
				r.pid, paneID = c.findPane(call)
				if known := c.routes.byID[paneID]; r.pid != nil && r.pid.Equal(known.pid) {
					r = known // the same pane by another id form: its post
				} else {
					// The pane tells its route, with its post, for
					// the next calls.
					call.Route = r.pid != nil
				}
			}
			if r.pid != nil {
				c.routes.sent = &directCall{call: call, paneID: id, within: within}
				msg := &kit.PaneCall{Call: call, PaneID: paneID}
				if r.post == nil {
					c.calls.SendCarried(ctx, r.pid, call, msg, within)
					return
				}
				// The pane's mailbox runs here when idle: a keystroke
				// wakes no pane goroutine, and its answer is written
				// by this one.
				r.post(func() { c.calls.SendCarried(ctx, r.pid, call, msg, within) })
				return
			}
			call.Route = true
		}
	}
	c.calls.Send(ctx, owner, call, within)
}

// findPane is the actor of the pane call names, from the session's newest
// read model (nil when it cannot say).
func (c *conn) findPane(call *kit.Call) (*actor.PID, string) {
	if f, ok := c.opts.Reads.(kit.PaneFinder); ok {
		return f.PaneActor(call)
	}
	return nil, ""
}

// learnRoute keeps a pane's route, told while its call is the current one.
func (c *conn) learnRoute(r *kit.PaneRoute) {
	if c.current == nil || r.PID == nil {
		return
	}
	if c.routes.byID == nil || len(c.routes.byID) >= maxPaneRoutes {
		c.routes.byID = map[string]paneRoute{}
	}
	c.routes.byID[r.PaneID] = paneRoute{pid: r.PID, post: r.Post}
}

// resend sends the current call through the session after its pane
// refused it (NotThisPane) or was gone (a dead letter), and reports
// whether it did: false when the call did not go to a pane directly.
func (c *conn) resend(ctx actor.Context) bool {
	d := c.routes.sent
	if d == nil {
		return false
	}
	c.routes.sent = nil
	delete(c.routes.byID, d.paneID)
	d.call.Route = true
	c.calls.Send(ctx, c.opts.Session, d.call, d.within)
	return true
}
