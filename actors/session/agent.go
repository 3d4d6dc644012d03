package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Agents in the session: the agents actor is the authority for agent
// state (hooks, names, waits, status); the session keeps what it shows of
// each pane's agent (a Shown per pane) in its read model, which the View
// publishes: the reads, and the resolving of agent and hook targets for
// the agents actor and the panes, are the View's (view/route.go).

// agentRoutes are the agent-targeted writes of the session.
var agentRoutes = map[string]paneHandler{
	"agent.focus": (*Session).agentFocus,
}

// shownChanged stores what the agents actor shows of a pane; a new
// presentation is announced as pane_updated.
func (s *Session) shownChanged(sh *agents.Shown) {
	p := s.terms[sh.TermID]
	if p == nil {
		return
	}
	old := p.shown
	p.shown = *sh
	p.shownRev++
	s.viewDirty = true // the workspaces' and tabs' roll-ups
	if sh.PresentationChanged(&old) {
		s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	}
}

// answer sends what the agents actor decided, rendering an agent record
// from the newest View (which shows what the agents actor told the
// session before this) when it asks for one.
// (The server's agents actor has them rendered from the read side
// itself: agents.Options.Answer.)
func (s *Session) answer(ctx actor.Context, a *agents.Answer) {
	ctx.Send(a.To, view.AgentAnswer(s.reads.Newest(), a))
}

// agentFocus focuses the agent's pane; the agents actor answers once it
// has the new placement (and has marked the tab's agents seen).
func (s *Session) agentFocus(ctx actor.Context, _ *kit.Call, p *paneRec) *kit.Reply {
	s.tx.FocusPane(p.Pane)
	s.tx.deferred = &agents.Answer{To: ctx.Sender(), Render: agents.RenderInfo, TermID: p.TermID()}
	return nil
}

// rollup is the most urgent status among panes.
func rollup(panes []*paneRec) protocol.AgentStatus {
	best := protocol.StatusUnknown
	for _, p := range panes {
		if st := p.shown.PublicStatus(); agents.Rank[st] > agents.Rank[best] {
			best = st
		}
	}
	return best
}

func (s *Session) workspacePanes(w *workspace) []*paneRec {
	var out []*paneRec
	for _, t := range w.Tabs() {
		out = append(out, s.tabPanes(t)...)
	}
	return out
}
