package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Every change publishes its event exactly once, after it is applied:
// handlers call emit as they change things, which queues the event in the
// message's transaction (txn.go); settle sends them once it commits,
// adding the focus and layout events that follow from the difference
// between before and after, and abandon drops them.

// emit queues an event in the current transaction.
func (s *Session) emit(d protocol.EventData, f events.Fields) {
	s.tx.event(d, f)
}

func (s *Session) workspaceFields(w *workspace) events.Fields {
	return events.Fields{WorkspaceID: w.ID(), Label: w.DisplayLabel()}
}

func (s *Session) tabFields(t *tab) events.Fields {
	return events.Fields{WorkspaceID: t.WS().ID(), TabID: t.ID(), Label: s.tabInfo(t).Label}
}

func (s *Session) paneFields(p *paneRec) events.Fields {
	return events.Fields{WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), PaneID: p.ID(), TermID: p.TermID(), Label: p.Label(), Revision: p.facts.Revision}
}

// place tells the agents actor where panes are (the newest View's
// placement, with what a restored pane's agent had), when that changed.
// Every change to where panes are publishes an event, so settle asks only
// after a message that published one or moved the focus.
//
// It reports whether the focused tab it sent is new.
func (s *Session) place(ctx actor.Context) (newTab bool) {
	v := s.reads.Newest()
	if v == nil {
		return false
	}
	pl := v.Placement()
	for i := range pl.Panes {
		if p := s.terms[pl.Panes[i].TermID]; p != nil && p.restored != nil {
			pl.Panes[i].Restored, p.restored = p.restored, nil
		}
	}
	if pl.FocusedWorkspace == s.placed.FocusedWorkspace && pl.FocusedTab == s.placed.FocusedTab && slices.Equal(pl.Panes, s.placed.Panes) {
		return false
	}
	newTab = pl.FocusedTab != s.placed.FocusedTab
	s.placed = pl
	ctx.Send(s.opts.Agents, &pl)
	return newTab
}

// updateFacts stores what a pane told us and publishes what changed: a
// new title as pane_updated (the pane publishes its output and scroll
// changes itself); a change of its agent or screen state goes on to the
// agents actor, a new live folder to the session file.
func (s *Session) updateFacts(ctx actor.Context, p *paneRec, msg *pane.Facts) {
	old, f := p.facts, *msg
	p.facts = f
	if f.Agent != old.Agent || f.AgentState != old.AgentState || f.Job != old.Job {
		ctx.Send(s.opts.Agents, msg)
	}
	if f.ForegroundCwd != "" && f.ForegroundCwd != p.LiveCwd() {
		s.tx.SetLiveCwd(p.Pane, f.ForegroundCwd) // where its next shell starts
		s.changed(ctx)
	}
	if view.StripSpinner(f.Title) != view.StripSpinner(old.Title) {
		s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	}
}
