package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Every change publishes its event exactly once, after it is applied:
// handlers call emit as they change things, and settle sends the batch
// when the message is done, adding the focus and layout events that follow
// from the difference between before and after.

// emit queues an event for the end of the current message.
func (s *Session) emit(d protocol.EventData, f events.Fields) {
	s.outbox = append(s.outbox, &events.Publish{Data: d, Fields: f})
}

func (s *Session) workspaceFields(w *workspace) events.Fields {
	return events.Fields{WorkspaceID: w.ID, Label: w.DisplayLabel()}
}

func (s *Session) tabFields(t *tab) events.Fields {
	return events.Fields{WorkspaceID: t.WS.ID, TabID: t.ID, Label: s.tabInfo(t).Label}
}

func (s *Session) paneFields(p *paneRec) events.Fields {
	return events.Fields{WorkspaceID: p.WS.ID, TabID: p.Tab.ID, PaneID: p.ID, TermID: p.TermID, Label: p.Label, Revision: p.facts.Revision}
}

// markLayout records that a tab's layout changed in this message.
func (s *Session) markLayout(t *tab) {
	if !slices.Contains(s.dirtyTabs, t) {
		s.dirtyTabs = append(s.dirtyTabs, t)
	}
}

// focusState is the focus path, to compare before and after a change.
type focusState struct{ ws, tab, pane string }

func (s *Session) focusNow() focusState {
	var f focusState
	if s.m.Focused != nil {
		f.ws = s.m.Focused.ID
		if s.m.Focused.Active != nil {
			f.tab = s.m.Focused.Active.ID
		}
		if p := s.focusedPane(); p != nil {
			f.pane = p.TermID
		}
	}
	return f
}

// begin opens the transaction of a message that may change the topology
// and returns the focus before it.
func (s *Session) begin() focusState {
	s.synced = false // only this message's placement counts
	s.tx = s.m.Begin()
	return s.focusNow()
}

// abandon discards the open transaction and drops what it queued: its
// events, the actors it would start or stop, the tabs it would resize;
// the panes it started are stopped (their OnDiscard).
func (s *Session) abandon() {
	s.tx.Discard()
	clear(s.outbox)
	s.outbox = s.outbox[:0]
	s.dirtyTabs = s.dirtyTabs[:0]
	clear(s.newborn)
	s.newborn = s.newborn[:0]
	s.retired, s.poisoned, s.newIDs = s.retired[:0], s.poisoned[:0], s.newIDs[:0]
	s.deferred, s.synced = nil, false
}

// conclude discards the transaction of a call that failed, so an error
// answer never leaves part of a change behind; an empty one is left for
// settle to commit.
func (s *Session) conclude(reply *kit.Reply) {
	if reply != nil && reply.Err != nil && s.tx.Changed() {
		s.abandon()
		s.tx = s.m.Begin()
	}
}

// poison stops a pane's actor once the transaction commits, after the
// requests already queued for it.
func (s *Session) poison(pid *actor.PID) { s.poisoned = append(s.poisoned, pid) }

// renamed tells a pane its public ids and label once the transaction
// commits: it stamps its own events with them.
func (s *Session) renamed(p *paneRec) { s.newIDs = append(s.newIDs, p) }

// settle commits the message's transaction and publishes what it changed.
func (s *Session) settle(ctx actor.Context, before focusState) {
	topo := s.tx.Changed()
	s.tx.Commit()
	for _, pid := range s.poisoned {
		ctx.Poison(pid)
	}
	clear(s.poisoned)
	s.poisoned = s.poisoned[:0]
	for _, p := range s.newIDs {
		if s.terms[p.TermID] == p {
			ctx.Send(p.pid, &pane.SetIDs{IDs: pane.IDs{PaneID: p.ID, WorkspaceID: p.WS.ID, TabID: p.Tab.ID, Label: p.Label}})
		}
	}
	clear(s.newIDs)
	s.newIDs = s.newIDs[:0]
	for _, t := range s.dirtyTabs {
		if t.Root != nil && t.WS.TabIndex(t) >= 0 && s.m.Workspace(t.WS.ID) == t.WS {
			s.emit(protocol.LayoutUpdatedEvent{Layout: s.layoutSnapshot(t)}, s.tabFields(t))
		}
	}
	s.settleEntities(ctx)
	s.trimAfterChange(ctx)
	s.dirtyTabs = s.dirtyTabs[:0]
	after := s.focusNow()
	if after.ws != before.ws && after.ws != "" {
		s.emit(protocol.WorkspaceFocusedEvent{WorkspaceID: after.ws}, s.workspaceFields(s.m.Focused))
	}
	if after.tab != before.tab && after.tab != "" {
		t := s.m.Focused.Active
		s.emit(protocol.TabRefEvent{Kind: "tab_focused", TabID: t.ID, WorkspaceID: t.WS.ID}, s.tabFields(t))
	}
	if after.pane != before.pane && after.pane != "" {
		p := s.terms[after.pane]
		s.emit(protocol.PaneRefEvent{Kind: "pane_focused", PaneID: p.ID, WorkspaceID: p.WS.ID}, s.paneFields(p))
	}
	s.publish(topo) // before the answer and the events: a read after them sees this
	if len(s.outbox) > 0 || after != before {
		s.place(ctx)
	}
	if len(s.outbox) > 0 {
		s.changed(ctx) // to the session file, in a while
	}
	if s.opts.Events != nil {
		for _, e := range s.outbox {
			ctx.Send(s.opts.Events, e)
		}
	}
	clear(s.outbox)
	s.outbox = s.outbox[:0]
}

// place tells the agents actor where panes are, when that changed. Every
// change to where panes are publishes an event, so settle asks only after
// a message that published one or moved the focus.
func (s *Session) place(ctx actor.Context) {
	pl := agents.Placement{Panes: make([]agents.Place, 0, len(s.terms))}
	if w := s.m.Focused; w != nil {
		pl.FocusedWorkspace = w.ID
		if w.Active != nil {
			pl.FocusedTab = w.Active.ID
		}
	}
	for _, w := range s.m.Workspaces {
		for _, p := range s.workspacePanes(w) {
			pl.Panes = append(pl.Panes, agents.Place{TermID: p.TermID, PaneID: p.ID, TabID: p.Tab.ID, WorkspaceID: p.WS.ID, Label: p.Label, PID: p.pid, Restored: p.restored})
			p.restored = nil
		}
	}
	if pl.FocusedWorkspace == s.placed.FocusedWorkspace && pl.FocusedTab == s.placed.FocusedTab && slices.Equal(pl.Panes, s.placed.Panes) {
		return
	}
	s.synced = s.synced || pl.FocusedTab != s.placed.FocusedTab
	s.placed = pl
	ctx.Send(s.opts.Agents, &pl)
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
	if f.ForegroundCwd != "" && f.ForegroundCwd != p.LiveCwd {
		s.tx.SetLiveCwd(p.Pane, f.ForegroundCwd) // where its next shell starts
		s.changed(ctx)
	}
	if view.StripSpinner(f.Title) != view.StripSpinner(old.Title) {
		s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	}
}
