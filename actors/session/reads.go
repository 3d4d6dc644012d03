package session

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The read side (package view): after each message that changed the read
// model the session publishes a view.View with every record already
// rendered, and connections answer reads from the newest one without
// entering the session's mailbox. It publishes in settle, before the
// message's answer and events go out, so every read that starts after a
// write's answer sees it; nothing is published until the restore (the
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
	id, termID, ws, tab, label, cwd string
	focused                         bool
	rows                            int
	facts                           pane.Facts
	shown                           uint64 // paneRec.shownRev
}

func (s *Session) paneKey(p *paneRec) paneKey {
	return paneKey{id: p.ID, termID: p.TermID, ws: p.WS.ID, tab: p.Tab.ID, label: p.Label, cwd: p.Cwd,
		focused: s.paneFocused(p), rows: p.rows, facts: p.facts, shown: p.shownRev}
}

// paneView is p's records, rendered again only when they changed.
func (s *Session) paneView(p *paneRec) *paneView {
	k := s.paneKey(p)
	if p.view != nil && p.view.key == k {
		return p.view
	}
	v := &paneView{key: k, rec: &view.Pane{Info: s.paneInfo(p)}}
	if p.shown.HostsAgent() {
		a := p.shown.Info(v.rec.Info)
		v.rec.Agent = &a
	}
	p.view = v
	return v
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
		s.reads.Publish(s.buildView())
		return
	}
	for _, p := range s.touched {
		i, ok := old.PaneByID[p.ID]
		if !ok || s.terms[p.TermID] != p || old.Rec(i).Info.TerminalID != p.TermID {
			continue // not shown: gone, or not yet placed (a model change)
		}
		if nv := s.paneView(p).rec; nv != old.Rec(i) {
			old.Panes[i].Store(nv)
		}
	}
}

// touch says p's facts or size changed outside the model: the next
// publish renders its records again if they show it.
func (s *Session) touch(p *paneRec) { s.touched = append(s.touched, p) }

// buildView renders the whole read model, in one walk: a pane's records
// and a tab's layout are rendered again only when what they show changed,
// and the id indexes are the last View's while the ids and their order are.
func (s *Session) buildView() *view.View {
	old := s.reads.Newest()
	tabs := 0
	for _, w := range s.m.Workspaces {
		tabs += len(w.Tabs)
	}
	v := &view.View{
		Spaces:      make([]view.Space, 0, len(s.m.Workspaces)),
		Tabs:        make([]view.Tab, 0, tabs),
		Panes:       make([]atomic.Pointer[view.Pane], len(s.terms)),
		FocusedPane: -1,
	}
	caches := make([]*tabCache, 0, tabs)
	focused, n := s.focusedPane(), 0
	same := old != nil // the ids, in the same order, as old's
	for i, w := range s.m.Workspaces {
		same = same && i < len(old.Spaces) && old.Spaces[i].Info.WorkspaceID == w.ID
		wv := view.Space{FirstTab: len(v.Tabs), FirstPane: n}
		wsStatus, wsPanes := protocol.StatusUnknown, 0
		for _, t := range w.Tabs {
			j := len(v.Tabs)
			same = same && j < len(old.Tabs) && old.Tabs[j].Info.TabID == t.ID
			c := s.cacheOf(old, t, j, same)
			if c == nil || c.root != t.Root {
				c = &tabCache{t: t, root: t.Root, leaves: t.Root.Leaves()}
			}
			tv := view.Tab{FirstPane: n}
			status := protocol.StatusUnknown
			for _, id := range c.leaves {
				p := s.terms[id]
				if p == nil { // only while a restore starts panes
					continue
				}
				if p == focused {
					v.FocusedPane = n
				}
				rec := s.paneView(p).rec
				same = same && n < len(old.Panes) && old.Rec(n).Info.PaneID == p.ID
				v.Panes[n].Store(rec)
				n++
				status = worse(status, p.shown.PublicStatus())
			}
			tv.PaneEnd = n
			tv.Info = s.tabInfoOf(t, len(c.leaves), status)
			c = s.cachedLayout(c, t, v.Panes[tv.FirstPane:tv.PaneEnd])
			tv.Layout = &c.layout
			caches = append(caches, c)
			wsStatus, wsPanes = worse(wsStatus, status), wsPanes+len(c.leaves)
			v.Tabs = append(v.Tabs, tv)
		}
		wv.Info = s.workspaceInfoAt(w, i+1, wsPanes, wsStatus)
		wv.TabEnd, wv.PaneEnd = len(v.Tabs), n
		v.Spaces = append(v.Spaces, wv)
	}
	v.Panes = v.Panes[:n]
	s.tabCaches = caches
	if same && len(old.Spaces) == len(v.Spaces) && len(old.Tabs) == len(v.Tabs) && len(old.Panes) == n {
		v.WSByID, v.TabByID, v.PaneByID = old.WSByID, old.TabByID, old.PaneByID
	} else {
		v.Index()
	}
	if w := s.m.Focused; w != nil {
		v.FocusedWS = w.ID
		if w.Active != nil {
			v.FocusedTab = w.Active.ID
		}
	}
	return v
}

// cacheOf is what tab t was last rendered from, if the last View (old)
// had it: at index j while the order is the same, else by its id.
func (s *Session) cacheOf(old *view.View, t *tab, j int, same bool) *tabCache {
	if old == nil {
		return nil
	}
	if !same {
		var ok bool
		if j, ok = old.TabByID[t.ID]; !ok {
			return nil
		}
	}
	if j < len(s.tabCaches) && s.tabCaches[j].t == t {
		return s.tabCaches[j]
	}
	return nil
}

// worse is the more urgent of two statuses (rollup's order).
func worse(a, b protocol.AgentStatus) protocol.AgentStatus {
	if agents.Rank[b] > agents.Rank[a] {
		return b
	}
	return a
}

// tabCache is what a tab's layout was last rendered from, kept by the
// session beside the View it published (Session.tabCaches, in its Tabs'
// order). A layout tree is never changed in place (model.Tx
// replaces it), so the same root is the same leaves.
type tabCache struct {
	t      *tab
	root   *layout.Node
	leaves []string
	// the layout below, and what else it was rendered from
	layout      protocol.PaneLayoutSnapshot
	area        layout.Rect
	zoomed      bool
	focused     string
	wsID, tabID string
	ids         []string // its panes' public ids
}

// cachedLayout is c, or a copy of it with t's layout rendered again when
// its tree, the area, zoom, focus or its panes' ids changed.
func (s *Session) cachedLayout(c *tabCache, t *tab, panes []atomic.Pointer[view.Pane]) *tabCache {
	same := c.ids != nil && c.area == s.m.Area && c.zoomed == t.Zoomed && c.focused == t.Focused &&
		c.wsID == t.WS.ID && c.tabID == t.ID && len(c.ids) == len(panes)
	for i := 0; same && i < len(panes); i++ {
		same = c.ids[i] == panes[i].Load().Info.PaneID
	}
	if same {
		return c
	}
	n := &tabCache{t: t, root: c.root, leaves: c.leaves, layout: s.layoutSnapshot(t), area: s.m.Area, zoomed: t.Zoomed,
		focused: t.Focused, wsID: t.WS.ID, tabID: t.ID, ids: make([]string, len(panes))}
	for i := range panes {
		n.ids[i] = panes[i].Load().Info.PaneID
	}
	return n
}
