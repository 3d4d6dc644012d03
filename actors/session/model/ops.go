package model

import (
	"slices"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The operations below change the topology. Each keeps the model whole:
// an operation that can fail checks before it changes anything.

// AddWorkspace appends an empty workspace; the caller gives it a tab at
// once (or takes it back with DropWorkspace). The first one is focused.
func (m *Model) AddWorkspace(label, cwd, auto string) *Workspace {
	m.NextWS++
	w := &Workspace{ID: protocol.WorkspaceID(m.NextWS), Label: label, Cwd: cwd, Auto: auto}
	m.Workspaces = append(m.Workspaces, w)
	m.byWorkspace[w.ID] = w
	if m.Focused == nil {
		m.Focused = w
	}
	return w
}

// UnaddWorkspace takes back the workspace AddWorkspace just made, as if it
// had never been added (its id is free again), focusing focused.
func (m *Model) UnaddWorkspace(w *Workspace, focused *Workspace) {
	m.Workspaces = m.Workspaces[:len(m.Workspaces)-1]
	delete(m.byWorkspace, w.ID)
	m.NextWS--
	m.Focused = focused
}

// AddTab appends an empty tab to w; the caller gives it a root at once.
func (m *Model) AddTab(w *Workspace, label string) *Tab {
	w.NextTab++
	t := &Tab{ID: protocol.TabID(w.ID, w.NextTab), WS: w, Label: label}
	w.Tabs = append(w.Tabs, t)
	if w.Active == nil {
		w.Active = t
	}
	return t
}

// UnaddTab takes back the tab AddTab just made.
func (m *Model) UnaddTab(t *Tab) {
	w := t.WS
	w.Tabs = w.Tabs[:len(w.Tabs)-1]
	w.NextTab--
	if w.Active == t {
		w.Active = nil
	}
}

// NextPaneID is the id the next pane of w will get.
func (m *Model) NextPaneID(w *Workspace) string { return protocol.PaneID(w.ID, w.NextPane+1) }

// AddPane registers a pane whose terminal has started, taking the id
// NextPaneID gave. Its leaf is the caller's to place.
func (m *Model) AddPane(p *Pane) {
	p.WS.NextPane++
	m.panes[p.ID] = p
	m.terms[p.TermID] = p
}

// Forget removes a pane's ids (and the aliases it kept after moves). Its
// leaf stays where it is: Detach or DropTab takes it out.
func (m *Model) Forget(p *Pane) {
	delete(m.panes, p.ID)
	for _, alias := range p.Aliases {
		delete(m.panes, alias)
	}
	delete(m.terms, p.TermID)
}

// Detach takes p's leaf out of its tab. It reports whether that emptied
// the tab, which the caller then drops (with DropTab); otherwise the tab's
// focus moves off p (unzooming) if it was on it.
func (m *Model) Detach(p *Pane) (emptied bool) {
	t := p.Tab
	root, _ := layout.Remove(t.Root, p.TermID)
	if root == nil {
		return true
	}
	t.Root = root
	if t.Focused == p.TermID {
		t.Focused = root.Leaves()[0]
		t.Zoomed = false
	}
	return false
}

// DropTab removes a tab and reports whether it was its workspace's last
// one, which the caller then drops (with DropWorkspace).
func (m *Model) DropTab(t *Tab) (emptied bool) {
	w := t.WS
	i := w.TabIndex(t)
	w.Tabs = slices.Delete(w.Tabs, i, i+1)
	if len(w.Tabs) == 0 {
		return true
	}
	if w.Active == t {
		w.Active = w.Tabs[min(i, len(w.Tabs)-1)]
	}
	return false
}

// DropWorkspace removes a workspace and moves focus to a neighbour.
func (m *Model) DropWorkspace(w *Workspace) {
	i := slices.Index(m.Workspaces, w)
	m.Workspaces = slices.Delete(m.Workspaces, i, i+1)
	delete(m.byWorkspace, w.ID)
	if m.Focused == w {
		m.Focused = nil
		if len(m.Workspaces) > 0 {
			m.Focused = m.Workspaces[min(i, len(m.Workspaces)-1)]
		}
	}
}

// FocusPane focuses a pane, its tab and its workspace.
func (m *Model) FocusPane(p *Pane) {
	p.Tab.Focused = p.TermID
	p.WS.Active = p.Tab
	m.Focused = p.WS
}

// Rehome puts a detached pane in tab dst (whose layout already holds its
// leaf). A pane that changes workspace gets the next id there; its old id
// keeps resolving until the pane closes.
func (m *Model) Rehome(p *Pane, dst *Tab) {
	if dst.WS != p.WS {
		p.Aliases = append(p.Aliases, p.ID)
		dst.WS.NextPane++
		p.ID = protocol.PaneID(dst.WS.ID, dst.WS.NextPane)
		m.panes[p.ID] = p
	}
	p.Tab, p.WS = dst, dst.WS
}

// MoveTo moves the element at from to index (clamped) and returns list.
func MoveTo[T any](list []T, from, index int) []T {
	x := list[from]
	list = slices.Delete(list, from, from+1)
	index = min(max(index, 0), len(list))
	return slices.Insert(list, index, x)
}
