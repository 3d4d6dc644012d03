package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
)

// Agents in the session: the agents actor is the authority for agent
// state (hooks, names, waits, status); what it shows of each pane's agent
// (a Shown per pane) goes into the pane's record (view.Records.Shown),
// which the View publishes: the reads, and the resolving of agent and
// hook targets for the agents actor and the panes, are the View's
// (view/route.go).

// agentHandlers are the agent-targeted writes of the session.
var agentHandlers = map[string]handler{
	"agent.focus": atPane((*Session).agentFocus),
}

// answer sends what the agents actor decided, rendering an agent record
// from the newest View (which shows what the agents actor told the
// session before this) when it asks for one.
// (The server's agents actor has them rendered from the read side
// itself: agents.Options.Answer.)
func (s *Session) answer(ctx actor.Context, a *agents.Answer) {
	ctx.Send(a.To, view.AgentAnswer(s.recs.View(), a))
}

// agentFocus focuses the agent's pane; the agents actor answers once it
// has the new placement (and has marked the tab's agents seen).
func (s *Session) agentFocus(ctx actor.Context, _ *kit.Call, p *paneRec) *kit.Reply {
	s.tx.FocusPane(p.Pane)
	s.tx.deferred = &agents.Answer{To: ctx.Sender(), Render: agents.RenderInfo, TermID: p.TermID()}
	return nil
}
