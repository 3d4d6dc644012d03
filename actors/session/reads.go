package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The read side (package view): after each message that changed the read
// model the session publishes a view.View with every record already
// rendered (view.Build), and connections answer reads from the newest one
// without entering the session's mailbox. It publishes in settle, before
// the message's answer and events go out, so every read that starts after
// a write's answer sees it; nothing is published until the restore (the
// session's first message) is done, so reads until then wait for it in
// the mailbox, as every call does. A publish renders again only what
// changed.

// paneView is one pane's records as last published, kept by its paneRec
// and reused by the next publish while key is unchanged.
type paneView struct {
	key paneKey
	rec *view.Pane
}

// paneKey is everything a pane's records are rendered from.
type paneKey struct {
	in    view.PaneIn
	shown uint64 // paneRec.shownRev
	pid   *actor.PID
}

// paneIn is what p's records are rendered from, but its agent.
func (s *Session) paneIn(p *paneRec) view.PaneIn {
	return view.PaneIn{ID: p.ID(), TermID: p.TermID(), WS: p.WS().ID(), Tab: p.Tab().ID(), Label: p.Label(), Cwd: p.Cwd(),
		Focused: s.paneFocused(p), Rows: p.rows, Facts: p.facts, RestoreError: p.RestoreError()}
}

// paneView is p's records, rendered again only when they changed.
func (s *Session) paneView(p *paneRec) *paneView {
	k := paneKey{in: s.paneIn(p), shown: p.shownRev, pid: p.pid}
	if p.view != nil && p.view.key == k {
		return p.view
	}
	rec := view.RenderPane(k.in, &p.shown)
	rec.PID, rec.Command = p.pid, p.Command()
	p.view = &paneView{key: k, rec: rec}
	return p.view
}

// publish makes the read model's present state the newest View. topo
// says the topology changed (the transaction just committed changed the
// model), or something else the workspace and tab records show (an
// agent's status: viewDirty); otherwise only the records of panes told
// something outside the model (touch: their facts, their size) can have
// changed, and the rest of the last View is shared.
func (s *Session) publish(topo bool) {
	defer func() { clear(s.touched); s.touched = s.touched[:0] }()
	old := s.reads.Newest()
	if old == nil || topo || s.viewDirty {
		s.viewDirty = false
		b := view.Build(s.m, old, s.tabCaches, len(s.terms), s.paneOf)
		s.tabCaches = b.Caches
		if s.manifests == nil && s.catalog != nil {
			s.manifests = view.ManifestInfos(s.catalog)
		}
		b.View.Manifests = s.manifests
		s.reads.Publish(b.View)
		return
	}
	for _, p := range s.touched {
		i, ok := old.PaneByID[p.ID()]
		if !ok || s.terms[p.TermID()] != p || old.Rec(i).Info.TerminalID != p.TermID() {
			continue // not shown: gone, or not yet placed (a model change)
		}
		if nv := s.paneView(p).rec; nv != old.Rec(i) {
			old.Panes[i].Store(nv)
		}
	}
}

// paneOf is view.Build's PaneOf: a terminal's records as last rendered.
func (s *Session) paneOf(termID string) (*view.Pane, protocol.AgentStatus, bool) {
	p := s.terms[termID]
	if p == nil { // only while a restore starts panes
		return nil, "", false
	}
	return s.paneView(p).rec, p.shown.PublicStatus(), true
}

// touch says p's facts or size changed outside the model: the next
// publish renders its records again if they show it.
func (s *Session) touch(p *paneRec) { s.touched = append(s.touched, p) }

// viewPane resolves a pane-targeted write's target from the newest View,
// as a connection resolves a pane's call: a pane by any id form, an agent
// by its pane's id or its name, an optional pane by the focus.
func (s *Session) viewPane(t protocol.Target, id string, params protocol.Params) (*paneRec, error) {
	v := s.reads.Newest()
	if v == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "the session has published nothing yet")
	}
	i, err := v.ResolveTarget(t, id, params)
	if err != nil {
		return nil, err
	}
	if p := s.terms[v.Rec(i).Info.TerminalID]; p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
}
