package view

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// PaneOf is the session's rendered records of the pane of a terminal and
// its agent's public status; ok is false for a terminal without a record
// yet (only while a restore starts panes), which the View leaves out.
type PaneOf func(termID string) (rec *Pane, status protocol.AgentStatus, ok bool)

// Built is what Build returns: the View, and what its tabs' layouts were
// rendered from, for the next Build to reuse.
type Built struct {
	View   *View
	Caches []*TabCache // in the View's Tabs' order
}

// Build renders the model m as a View, in one walk: a tab's layout is
// rendered again only when what it shows changed, and the id indexes are
// old's while the ids and their order are. old is the last View built
// (nil for none) and caches what it was built from; panes is at least the
// number of panes.
func Build(m *model.Model, old *View, caches []*TabCache, panes int, paneOf PaneOf) Built {
	tabs := 0
	for _, w := range m.Workspaces() {
		tabs += len(w.Tabs())
	}
	v := &View{
		Spaces:      make([]Space, 0, len(m.Workspaces())),
		Tabs:        make([]Tab, 0, tabs),
		Panes:       make([]atomic.Pointer[Pane], panes),
		Raw:         make([]uint64, panes),
		FocusedPane: -1,
		Area:        m.Area(),
	}
	out := make([]*TabCache, 0, tabs)
	focused := ""
	if p := m.FocusedPane(); p != nil {
		focused = p.TermID()
	}
	n := 0
	same := old != nil // the ids, in the same order, as old's
	for i, w := range m.Workspaces() {
		same = same && i < len(old.Spaces) && old.Spaces[i].Info.WorkspaceID == w.ID()
		wv := Space{FirstTab: len(v.Tabs), FirstPane: n, Cwd: w.Cwd()}
		wsStatus, wsPanes := protocol.StatusUnknown, 0
		for _, t := range w.Tabs() {
			j := len(v.Tabs)
			same = same && j < len(old.Tabs) && old.Tabs[j].Info.TabID == t.ID()
			c := cacheOf(old, caches, t, j, same)
			if c == nil || c.root != t.Root() {
				c = &TabCache{t: t, root: t.Root(), leaves: t.Root().Leaves()}
			}
			tv := Tab{FirstPane: n, Root: c.root}
			status := protocol.StatusUnknown
			for _, id := range c.leaves {
				rec, st, ok := paneOf(id)
				if !ok {
					continue
				}
				if id == focused {
					v.FocusedPane = n
				}
				same = same && n < len(old.Panes) && old.Rec(n).Info.PaneID == rec.Info.PaneID
				v.Panes[n].Store(rec)
				if mp := m.Term(id); mp != nil {
					v.Raw[n] = mp.Raw()
					for _, alias := range mp.Aliases() {
						if v.Former == nil {
							v.Former = map[string]int{}
						}
						v.Former[alias] = n
					}
				}
				n++
				status = Worse(status, st)
			}
			tv.PaneEnd = n
			tv.Info = TabInfo(m, t, len(c.leaves), status)
			c = cachedLayout(m, c, t, v.Panes[tv.FirstPane:tv.PaneEnd])
			tv.Layout = &c.layout
			out = append(out, c)
			wsStatus, wsPanes = Worse(wsStatus, status), wsPanes+len(c.leaves)
			v.Tabs = append(v.Tabs, tv)
		}
		wv.Info = WorkspaceInfo(m, w, i+1, wsPanes, wsStatus)
		wv.TabEnd, wv.PaneEnd = len(v.Tabs), n
		v.Spaces = append(v.Spaces, wv)
	}
	v.Panes, v.Raw = v.Panes[:n], v.Raw[:n]
	if same && len(old.Spaces) == len(v.Spaces) && len(old.Tabs) == len(v.Tabs) && len(old.Panes) == n {
		v.WSByID, v.TabByID, v.PaneByID, v.ByTerm = old.WSByID, old.TabByID, old.PaneByID, old.ByTerm
	} else {
		v.Index()
	}
	if w := m.Focused(); w != nil {
		v.FocusedWS = w.ID()
		if w.Active() != nil {
			v.FocusedTab = w.Active().ID()
		}
	}
	return Built{View: v, Caches: out}
}

// cacheOf is what tab t was last rendered from, if the last View (old)
// had it: at index j while the order is the same, else by its id.
func cacheOf(old *View, caches []*TabCache, t *model.Tab, j int, same bool) *TabCache {
	if old == nil {
		return nil
	}
	if !same {
		var ok bool
		if j, ok = old.TabByID[t.ID()]; !ok {
			return nil
		}
	}
	if j < len(caches) && caches[j].t == t {
		return caches[j]
	}
	return nil
}

// TabCache is what a tab's layout was last rendered from, kept beside the
// View built (Built.Caches, in its Tabs' order). A layout tree is never
// changed in place (model.Tx replaces it), so the same root is the same
// leaves.
type TabCache struct {
	t      *model.Tab
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
func cachedLayout(m *model.Model, c *TabCache, t *model.Tab, panes []atomic.Pointer[Pane]) *TabCache {
	same := c.ids != nil && c.area == m.Area() && c.zoomed == t.Zoomed() && c.focused == t.Focused() &&
		c.wsID == t.WS().ID() && c.tabID == t.ID() && len(c.ids) == len(panes)
	for i := 0; same && i < len(panes); i++ {
		same = c.ids[i] == panes[i].Load().Info.PaneID
	}
	if same {
		return c
	}
	n := &TabCache{t: t, root: c.root, leaves: c.leaves, layout: Layout(m, t), area: m.Area(), zoomed: t.Zoomed(),
		focused: t.Focused(), wsID: t.WS().ID(), tabID: t.ID(), ids: make([]string, len(panes))}
	for i := range panes {
		n.ids[i] = panes[i].Load().Info.PaneID
	}
	return n
}
