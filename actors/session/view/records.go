package view

import (
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	"github.com/herdr-go/herdr/protocol"
)

// The read model's records beside the topology: what the session knows of
// each terminal that is not topology (its actor, the facts it last told,
// what the agents actor shows of its agent, its size), rendered into the
// *Info records, the events' fields and each View, and the agents actor's
// placement. The session holds one Records and calls it at fixed points
// of a message (facts in, a record put or dropped inside its transaction,
// a publish once it commits); nothing here sends a message or changes the
// topology.

// Record is the session's record of one terminal: its pane in the model
// and what the model does not hold.
type Record struct {
	*model.Pane
	PID *actor.PID
	// Facts is what the pane last told, stored by Records.Facts alone,
	// which counts each in factsRev.
	Facts pane.Facts
	// Shown is what the agents actor shows of its agent; nil until it
	// shows something (a pane without an agent needs none: shown). It is
	// replaced, never changed, so a rendered record shares it.
	Shown *agents.Shown
	// Restored is the agent session a restored pane's agent reported
	// before the restart, for the agents actor's first placement.
	Restored   *protocol.AgentSessionInfo
	Cols, Rows int
	SizeRev    uint64 // grows with every new Cols × Rows
	// shownRev and factsRev grow with every new Shown and Facts; drawn
	// is the records as last rendered, reused while what they are drawn
	// from is unchanged.
	shownRev, factsRev uint64
	drawn              *drawn
}

// RestoreSession keeps the agent session a restored pane's agent
// reported: shown (a new Shown: one is never changed) and kept for the
// agents actor's first placement.
func (p *Record) RestoreSession(ref *protocol.AgentSessionInfo) {
	sh := *p.shown()
	sh.Session, p.Shown, p.Restored = ref, &sh, ref
}

// noShown is what a record shows before the agents actor showed anything:
// nothing. Read only.
var noShown = &agents.Shown{}

// shown is what p shows of its agent.
func (p *Record) shown() *agents.Shown {
	if p.Shown == nil {
		return noShown
	}
	return p.Shown
}

// drawn is a record's rendering and what it was rendered from.
type drawn struct {
	key drawKey
	rec *Pane
}

// drawKey is everything a pane's records are rendered from: its PaneIn,
// with the revision of its facts in place of a copy of them, and without
// its terminal id, which a Record keeps for good (drawn is 144 bytes a
// pane).
type drawKey struct {
	id, ws, tab, label, cwd, restoreError string
	focused                               bool
	rows                                  int
	facts, shown                          uint64 // Record.factsRev, Record.shownRev
	pid                                   *actor.PID
}

// Records holds every terminal's Record and publishes the read model: the
// model m (read only), the newest View's place (side), and what the last
// publish left to reuse.
type Records struct {
	m     *model.Model
	side  *ReadSide
	home  string // a workspace in it is labelled "~"
	terms map[string]*Record
	// touched are the records told something outside the model since the
	// last publish (facts, a size); dirty says something the workspaces'
	// and tabs' records show changed outside the model (an agent's status,
	// the manifests).
	touched   []*Record
	dirty     bool
	owed      bool        // a publish held back (Publish's later), made by Flush
	placeOwed bool        // and the placement, which a later publish may not make
	caches    []*TabCache // beside the last View's Tabs
	manifests []protocol.AgentManifestInfo
	placed    agents.Placement // the agents actor's last
	inset     int              // the cells a pane's frame takes on each side
}

// NewRecords returns the records of a session whose topology is m, which
// it publishes to side.
func NewRecords(m *model.Model, side *ReadSide, home string) *Records {
	return &Records{m: m, side: side, home: home, terms: map[string]*Record{}}
}

// Get is the record of terminal termID, nil for none.
func (r *Records) Get(termID string) *Record { return r.terms[termID] }

// Of is the record of a model pane (nil for nil).
func (r *Records) Of(p *model.Pane) *Record {
	if p == nil {
		return nil
	}
	return r.terms[p.TermID()]
}

// Set makes rec terminal termID's record (nil: none) and returns the one
// it replaced, for the transaction's undo.
func (r *Records) Set(termID string, rec *Record) (old *Record) {
	old = r.terms[termID]
	if rec == nil {
		delete(r.terms, termID)
	} else {
		r.terms[termID] = rec
	}
	return old
}

// All is every record, in no order.
func (r *Records) All() iter.Seq[*Record] { return maps.Values(r.terms) }

// Target is the record of a pane-targeted write's target, resolved from
// the newest View as a connection resolves a pane's call: a pane by any id
// form, an agent by its pane's id or its name, an optional pane by the
// focus.
func (r *Records) Target(t protocol.Target, id string, params protocol.Params) (*Record, error) {
	v := r.View()
	if v == nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "the session has published nothing yet")
	}
	i, err := v.ResolveTarget(t, id, params)
	if err != nil {
		return nil, err
	}
	if p := r.terms[v.Rec(i).Info.TerminalID]; p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
}

// Focused is the focused pane's record, nil for none.
func (r *Records) Focused() *Record { return r.Of(r.m.FocusedPane()) }

// rollup is the most urgent status of t's agents.
func (r *Records) rollup(t *model.Tab) protocol.AgentStatus {
	st := protocol.StatusUnknown
	for _, p := range r.m.TabPanes(t) {
		if rec := r.terms[p.TermID()]; rec != nil { // nil only while a restore starts panes
			st = Worse(st, rec.shown().PublicStatus())
		}
	}
	return st
}

// The records of the session's answers, rendered as the View renders them
// (render.go); they implement model.Env for the model's operations.

// WorkspaceInfo is w's record.
func (r *Records) WorkspaceInfo(w *model.Workspace) protocol.WorkspaceInfo {
	st := protocol.StatusUnknown
	for _, t := range w.Tabs() {
		st = Worse(st, r.rollup(t))
	}
	return WorkspaceInfo(r.m, w, slices.Index(r.m.Workspaces(), w)+1, w.PaneCount(), st)
}

// TabInfo is t's record.
func (r *Records) TabInfo(t *model.Tab) protocol.TabInfo {
	return TabInfo(r.m, t, len(t.Root().Leaves()), r.rollup(t))
}

// PaneInfo is p's record.
func (r *Records) PaneInfo(p *model.Pane) protocol.PaneInfo {
	rec := r.Of(p)
	if rec == nil { // a pane whose terminal has no record yet: the model's part
		rec = &Record{Pane: p}
	}
	return PaneInfo(r.paneIn(rec), rec.shown())
}

// Layout is t's layout.
func (r *Records) Layout(t *model.Tab) protocol.PaneLayoutSnapshot { return Layout(r.m, t) }

// AutoLabel is the label of a workspace made in cwd that has none.
func (r *Records) AutoLabel(cwd string) string { return AutoLabel(cwd, r.home) }

// Folder is where p's foreground process is, "" when unknown.
func (r *Records) Folder(p *model.Pane) string {
	if rec := r.Of(p); rec != nil {
		return rec.Facts.ForegroundCwd
	}
	return ""
}

// Fields are the event fields of x as it is now (model.Env).
func (r *Records) Fields(x model.Subject) model.Fields {
	switch x := x.(type) {
	case *model.Workspace:
		return model.Fields{WorkspaceID: x.ID(), Label: x.DisplayLabel()}
	case *model.Tab:
		return model.Fields{WorkspaceID: x.WS().ID(), TabID: x.ID(), Label: tabLabel(x)}
	case *model.Pane:
		if rec := r.Of(x); rec != nil {
			return r.Fields(rec)
		}
		return model.Fields{WorkspaceID: x.WS().ID(), TabID: x.Tab().ID(), PaneID: x.ID(), TermID: x.TermID(), Label: x.Label()}
	case *Record:
		return model.Fields{WorkspaceID: x.WS().ID(), TabID: x.Tab().ID(), PaneID: x.ID(), TermID: x.TermID(), Label: x.Label(), Revision: x.Facts.Revision}
	}
	return model.Fields{}
}

// AutoLabel names a workspace after its git repository folder, else its
// cwd's base name, "~" for the home directory.
func AutoLabel(cwd, home string) string {
	if cwd == "" {
		return "~"
	}
	for dir := cwd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Base(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir || dir == home {
			break
		}
		dir = parent
	}
	if cwd == home {
		return "~"
	}
	return filepath.Base(cwd)
}

// What the panes and the agents actor tell the session.

// Facts stores what p told. It reports whether its agent's or screen's
// state changed (the agents actor is to be told) and returns the event a
// new title makes (none for the same title); the pane publishes its output and scroll
// changes itself.
func (r *Records) Facts(p *Record, f *pane.Facts) (agent bool, updated model.Out) {
	old := p.Facts
	if *f != old {
		p.Facts = *f
		p.factsRev++
	}
	r.touched = append(r.touched, p)
	agent = f.Agent != old.Agent || f.AgentState != old.AgentState || f.Job != old.Job
	if StripSpinner(f.Title) != StripSpinner(old.Title) {
		updated = r.paneUpdated(p)
	}
	return agent, updated
}

// Shown stores what the agents actor shows of a pane's agent and returns
// the event a new presentation makes (none when it makes none).
func (r *Records) Shown(sh *agents.Shown) (updated model.Out) {
	p := r.terms[sh.TermID]
	if p == nil {
		return model.Out{}
	}
	old := p.shown()
	c := *sh
	p.Shown = &c
	p.shownRev++
	r.dirty = true // the workspaces' and tabs' roll-ups
	if sh.PresentationChanged(old) {
		return r.paneUpdated(p)
	}
	return model.Out{}
}

func (r *Records) paneUpdated(p *Record) model.Out {
	return model.Out{Events: []model.Event{{Data: protocol.PaneEvent{Kind: "pane_updated", Pane: r.PaneInfo(p.Pane)}, Fields: r.Fields(p)}}}
}

// SetManifests makes infos the agent manifests the View shows.
func (r *Records) SetManifests(infos []protocol.AgentManifestInfo) {
	r.manifests, r.dirty = infos, true
}

// Sizes: a pane's terminal is the inside of the one-cell frame the
// interactive client draws around it once a client has attached (and
// after it detaches, like the size it set); all of its rectangle before.

// Frame says a client draws the panes' frames, from now on.
func (r *Records) Frame() { r.inset = 1 }

// Framed reports whether the panes are framed.
func (r *Records) Framed() bool { return r.inset == 1 }

func (r *Records) contentSize(rect layout.Rect) (cols, rows int) {
	return max(rect.W-2*r.inset, 1), max(rect.H-2*r.inset, 1)
}

// StartSize gives a new pane the size of rect, its first size revision.
func (r *Records) StartSize(p *Record, rect layout.Rect) {
	p.Cols, p.Rows = r.contentSize(rect)
	p.SizeRev = 1
}

// Arrange is the size of every pane of t from its rectangles, a pane
// whose size changed given a new size revision.
func (r *Records) Arrange(t *model.Tab) *tabactor.Arrange {
	rects := r.m.TabRects(t)
	a := &tabactor.Arrange{Sizes: make([]tabactor.Size, 0, len(rects))}
	for _, rect := range rects {
		p := r.terms[rect.ID]
		if p == nil {
			continue
		}
		if cols, rows := r.contentSize(rect.Rect); cols != p.Cols || rows != p.Rows {
			p.Cols, p.Rows = cols, rows
			p.SizeRev++
			r.touched = append(r.touched, p) // its viewport rows
		}
		a.Sizes = append(a.Sizes, tabactor.Size{TerminalID: p.TermID(), PID: p.PID, Cols: p.Cols, Rows: p.Rows, Rev: p.SizeRev})
	}
	return a
}

// Sizes are the size revisions t's panes have, for its actor's start.
func (r *Records) Sizes(t *model.Tab) []tabactor.SizeRev {
	panes := r.m.TabPanes(t)
	sizes := make([]tabactor.SizeRev, 0, len(panes))
	for _, p := range panes {
		if rec := r.terms[p.TermID()]; rec != nil {
			sizes = append(sizes, tabactor.SizeRev{TerminalID: p.TermID(), Rev: rec.SizeRev})
		}
	}
	return sizes
}

// Publishing.

// paneIn is what p's records are rendered from, but its agent.
func (r *Records) paneIn(p *Record) PaneIn {
	return PaneIn{ID: p.ID(), TermID: p.TermID(), WS: p.WS().ID(), Tab: p.Tab().ID(), Label: p.Label(), Cwd: p.Cwd(),
		Focused: r.m.PaneFocused(p.Pane), Rows: p.Rows, Facts: p.Facts, RestoreError: p.RestoreError()}
}

// draw is p's records, rendered again only when what they show changed.
func (r *Records) draw(p *Record) *Pane {
	in := r.paneIn(p)
	k := drawKey{id: in.ID, ws: in.WS, tab: in.Tab, label: in.Label, cwd: in.Cwd, restoreError: in.RestoreError,
		focused: in.Focused, rows: in.Rows, facts: p.factsRev, shown: p.shownRev, pid: p.PID}
	if p.drawn != nil && p.drawn.key == k {
		return p.drawn.rec
	}
	rec := RenderPane(in, p.shown())
	rec.PID, rec.Command = p.PID, p.Command()
	p.drawn = &drawn{key: k, rec: rec}
	return rec
}

// paneOf is Build's PaneOf.
func (r *Records) paneOf(termID string) (*Pane, protocol.AgentStatus, bool) {
	p := r.terms[termID]
	if p == nil { // only while a restore starts panes
		return nil, "", false
	}
	return r.draw(p), p.shown().PublicStatus(), true
}

// Publish makes the read model's present state the newest View. topo says
// the topology changed (a transaction that changed the model just
// committed); otherwise, unless something the workspaces' and tabs'
// records show changed (dirty), only the records of panes told something
// outside the model (their facts, their size) can have changed, and the
// rest of the last View is shared.
//
// later holds the publish back while more messages wait behind the one
// being handled (a fact's: a call's answer must see its write): a
// backlog of facts, as a restore of many panes sends, then builds one
// View rather than one per message, each as big as the session. The
// read side's calls wait for the View owed (ReadSide.Owe); Flush makes
// it. Publish reports whether it held back a View where none was owed:
// the session then sends itself an Owed, which reaches it after what is
// queued now, whatever the count of the messages queued says.
func (r *Records) Publish(topo, later bool) (first bool) {
	if later {
		r.dirty = r.dirty || topo
		first, r.owed, r.placeOwed = !r.owed, true, true
		r.side.Owe(true)
		return first
	}
	r.owed = false
	r.side.Owe(false)
	defer func() { clear(r.touched); r.touched = r.touched[:0] }()
	old := r.side.Newest()
	if old == nil || topo || r.dirty {
		r.dirty = false
		b := Build(r.m, old, r.caches, len(r.terms), r.paneOf)
		r.caches = b.Caches
		b.View.Manifests = r.manifests
		r.side.Publish(b.View)
		return false
	}
	for _, p := range r.touched {
		i, ok := old.PaneByID[p.ID()]
		if !ok || r.terms[p.TermID()] != p || old.Rec(i).Info.TerminalID != p.TermID() {
			continue // not shown: gone, or not yet placed (a model change)
		}
		if nv := r.draw(p); nv != old.Rec(i) {
			old.Panes[i].Store(nv)
		}
	}
	return false
}

// Owed is the session's prompt to itself to publish the View it held
// back (Publish): a kit.Keeping.
type Owed struct{}

// Keeping implements kit.Keeping.
func (*Owed) Keeping() {}

// Flush publishes the View held back (Publish's later), if one is, and
// reports whether the placement is owed too (Placement, which a call
// may have made since).
func (r *Records) Flush() bool {
	if r.owed {
		r.Publish(false, false)
	}
	return r.placeOwed
}

// View is the newest View, the one held back made first.
func (r *Records) View() *View {
	r.Flush()
	return r.side.Newest()
}

// Placement is where panes are for the agents actor (the newest View's
// placement, with what a restored pane's agent had), nil when that is
// what it was last given; newTab says the focused tab is new.
func (r *Records) Placement() (pl *agents.Placement, newTab bool) {
	v := r.View()
	r.placeOwed = false
	if v == nil {
		return nil, false
	}
	now := v.Placement()
	for i := range now.Panes {
		if p := r.terms[now.Panes[i].TermID]; p != nil && p.Restored != nil {
			now.Panes[i].Restored, p.Restored = p.Restored, nil
		}
	}
	if now.FocusedWorkspace == r.placed.FocusedWorkspace && now.FocusedTab == r.placed.FocusedTab && slices.EqualFunc(now.Panes, r.placed.Panes, samePlace) {
		return nil, false
	}
	newTab = now.FocusedTab != r.placed.FocusedTab
	r.placed = now
	return &now, newTab
}

// samePlace compares two places but for the restored agent session, which
// goes with a pane's first placement only.
func samePlace(a, b agents.Place) bool {
	a.Restored, b.Restored = nil, nil
	return a == b
}

// Fresh is a View built afresh from the model and the records, sharing
// nothing with the last one: what Publish's incremental Views must equal.
func (r *Records) Fresh() *View {
	b := Build(r.m, nil, nil, len(r.terms), r.paneOf)
	b.View.Manifests = r.manifests
	return b.View
}

// Saved is what the session file keeps of p's record: the agent session
// its agent reported, and its terminal session's leader (for the next
// server to end it should this one die: pane.EndLeftovers).
func (r *Records) Saved(p *model.Pane) model.SavedPane {
	var sp model.SavedPane
	rec := r.terms[p.TermID()]
	if rec == nil {
		return sp
	}
	if sh := rec.shown(); sh.Session != nil {
		ref := *sh.Session
		sp.AgentSession = &ref
	}
	if rec.Facts.ShellStart != "" {
		sp.Process = &model.SavedProcess{Pid: rec.Facts.ShellPID, Start: rec.Facts.ShellStart}
	}
	return sp
}
