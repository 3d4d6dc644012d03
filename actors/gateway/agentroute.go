package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Agent routes: a call the table gives the agents actor goes to it
// directly, resolved from the session's newest read model (the view
// methods name nothing; the hook reports name a pane by any id form; the
// agent methods an agent by its pane's current id), not through the
// session. A target the read model cannot resolve (a name, a message to
// the session still waiting) goes through the session, which resolves it
// and answers its errors.

// sendToAgents sends call to the agents actor when its target resolves
// here, and reports whether it did.
func (c *conn) sendToAgents(ctx actor.Context, m protocol.Method, call *kit.Call) bool {
	if m.Owner != protocol.OwnerAgents || c.opts.AgentsActor == nil || protocol.ToMachines(call.Params) ||
		m.Gate != "" && (c.opts.GateOpen == nil || !c.opts.GateOpen(m.Gate)) {
		return false
	}
	f, ok := c.opts.Reads.(kit.PaneFinder)
	if !ok {
		return false
	}
	termID, ok := f.AgentTerm(call, m.Target)
	if !ok {
		return false
	}
	req := &agents.Request{Call: call, TermID: termID}
	c.calls.SendCarried(ctx, c.opts.AgentsActor, call, req, kit.Deadline(call.Params, c.opts.CallDeadline))
	return true
}
