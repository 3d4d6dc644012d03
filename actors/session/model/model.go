package model

import (
	"slices"
	"strconv"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Workspace is a named group of tabs.
type Workspace struct {
	id       string
	label    string // custom label, or "" to show Auto
	auto     string // derived from the cwd once, at creation
	cwd      string
	tabs     []*Tab
	active   *Tab
	nextTab  uint64
	nextPane uint64
	tokens   map[string]string // reported by hooks (the workspace actor's)
	// Worktree is its place in a worktree group (nil: none).
	worktree *protocol.WorkspaceWorktreeInfo
}

// Tab is one layout of panes within a workspace.
type Tab struct {
	id      string
	ws      *Workspace
	label   string // custom label, or "" for its position
	root    *layout.Node
	focused string // terminal id of the focused pane
	zoomed  bool   // the focused pane fills the tab
}

// Pane is one terminal's place in the topology.
type Pane struct {
	id     string // public id, e.g. "w1:p2"
	termID string
	ws     *Workspace
	tab    *Tab
	label  string
	cwd    string // the folder it was started in
	// LiveCwd is the folder it was last seen in (its foreground process's,
	// else its shell's), as the pane reported it; "" when unknown.
	liveCwd    string
	command    []string // argv it was started with, when not the shell
	aliases    []string // public ids it had before moving between workspaces
	rightClick string
	// Raw is Herdr's raw pane id, which the legacy ids p_<raw> and
	// p_<ws>_<raw> name: the pane's place in the order this server
	// registered panes, session-wide (restored ones first, in file order).
	raw uint64
	// RestoreError says why the pane did not come back as it was saved
	// (its folder gone, its agent not resumed); "" when it did. Not saved.
	restoreError string
	// covers is, for an overlay, the terminal it covered, and coverZoomed
	// whether that tab was zoomed: given back when it closes (ops_open.go).
	covers      string
	coverZoomed bool
}

// Model is the whole topology of one session.
type Model struct {
	workspaces []*Workspace
	focused    *Workspace
	// Area is the tab area in cells.
	area     layout.Rect
	nextWS   uint64
	nextTerm uint64
	nextRaw  uint64 // the last Pane.Raw given

	byWorkspace map[string]*Workspace
	panes       map[string]*Pane // by public id, current and former
	terms       map[string]*Pane // by terminal id

	tx Tx // the one transaction, reused (tx.go)
}

// New returns an empty model whose tabs are laid out in area.
func New(area layout.Rect) *Model {
	return &Model{area: area, byWorkspace: map[string]*Workspace{}, panes: map[string]*Pane{}, terms: map[string]*Pane{}}
}

// DisplayLabel is the label the workspace is shown with.
func (w *Workspace) DisplayLabel() string {
	if w.label != "" {
		return w.label
	}
	return w.auto
}

// TabIndex is t's position in w, or -1.
func (w *Workspace) TabIndex(t *Tab) int { return slices.Index(w.tabs, t) }

// PaneCount counts the panes of every tab of w.
func (w *Workspace) PaneCount() int {
	n := 0
	for _, t := range w.tabs {
		n += len(t.root.Leaves())
	}
	return n
}

// Workspace is the workspace with exactly this id.
func (m *Model) Workspace(id string) *Workspace { return m.byWorkspace[id] }

// Alive reports whether w is still in the model.
func (m *Model) Alive(w *Workspace) bool { return m.byWorkspace[w.id] == w }

// TabAlive reports whether t is still in the model.
func (m *Model) TabAlive(t *Tab) bool { return m.Alive(t.ws) && t.ws.TabIndex(t) >= 0 }

// Term is the pane of a terminal id, or nil.
func (m *Model) Term(termID string) *Pane { return m.terms[termID] }

// Pane is the pane a public id (current or former) names, or nil.
func (m *Model) Pane(id string) *Pane { return m.panes[id] }

// ResolveWorkspace accepts "w1", a bare 1-based position, or the legacy "w_N".
func (m *Model) ResolveWorkspace(id string) (*Workspace, error) {
	if w, ok := m.byWorkspace[id]; ok {
		return w, nil
	}
	if n, ok := protocol.LegacyWorkspacePos(id); ok && n <= len(m.workspaces) {
		return m.workspaces[n-1], nil
	}
	return nil, protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s not found", id)
}

// ResolveTab accepts "w1:t1" and the legacy position forms "w1:N" and
// "t_w1_N" (N 1-based).
func (m *Model) ResolveTab(id string) (*Tab, error) {
	id = protocol.CanonicalTabForm(id)
	if ws, kind, num, ok := protocol.SplitChildID(id); ok {
		if w, found := m.byWorkspace[ws]; found {
			for _, t := range w.tabs {
				if t.id == id {
					return t, nil
				}
			}
			if n, err := strconv.Atoi(string(kind) + num); err == nil && n >= 1 && n <= len(w.tabs) {
				return w.tabs[n-1], nil
			}
		}
	}
	return nil, protocol.Errorf(protocol.CodeTabNotFound, "tab %s not found", id)
}

// FutureTabID is the canonical id that id names for a tab_created wait when
// no tab has it yet: the legacy forms "t_<ws>_N" and "<ws>:N" (N the
// decimal 1-based position) become "<ws>:t<N>", the number the tab at that
// position gets while none of the workspace's tabs has closed, with the
// workspace's own legacy forms resolved; any other id is kept as given.
func (m *Model) FutureTabID(id string) string {
	ws, n, ok := protocol.SplitLegacyTab(id)
	if !ok {
		return id
	}
	if w, err := m.ResolveWorkspace(ws); err == nil {
		ws = w.id
	}
	return protocol.TabID(ws, n)
}

// ResolvePane accepts a public pane id, current or former, and the legacy
// forms "w1-N" (N the pane's number), "p_N" and "p_w1_N" (N the pane's
// raw id, as in Herdr; failing that, its number: for "p_N" only when a
// single workspace has a pane N).
func (m *Model) ResolvePane(id string) (*Pane, error) {
	if p, ok := m.panes[id]; ok {
		return p, nil
	}
	if p := m.legacyPane(id); p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
}

func (m *Model) legacyPane(id string) *Pane {
	ws, n, raw, ok := protocol.SplitLegacyPane(id)
	if !ok {
		return nil
	}
	if p := m.rawPane(n); p != nil && raw {
		if ws == "" {
			return p
		}
		if w, err := m.ResolveWorkspace(ws); err == nil && p.ws == w {
			return p
		}
	}
	if ws != "" {
		return m.panes[protocol.PaneID(ws, n)]
	}
	var found *Pane
	for _, w := range m.workspaces {
		if p := m.panes[protocol.PaneID(w.id, n)]; p != nil && p.id == protocol.PaneID(w.id, n) {
			if found != nil {
				return nil // ambiguous
			}
			found = p
		}
	}
	return found
}

// rawPane is the pane whose raw id is n, or nil.
func (m *Model) rawPane(n uint64) *Pane {
	for _, p := range m.terms {
		if p.raw == n {
			return p
		}
	}
	return nil
}

// FocusedPane is the focused pane of the focused tab of the focused
// workspace, or nil.
func (m *Model) FocusedPane() *Pane {
	if m.focused == nil || m.focused.active == nil {
		return nil
	}
	return m.terms[m.focused.active.focused]
}

// TabFocused reports whether t is the focused tab of the focused workspace.
func (m *Model) TabFocused(t *Tab) bool { return m.focused != nil && m.focused.active == t }

// PaneFocused reports whether p is the focused pane on screen.
func (m *Model) PaneFocused(p *Pane) bool { return m.TabFocused(p.tab) && p.tab.focused == p.termID }

// TabPanes returns a tab's panes in layout order.
func (m *Model) TabPanes(t *Tab) []*Pane {
	leaves := t.root.Leaves()
	out := make([]*Pane, 0, len(leaves))
	for _, id := range leaves {
		if p := m.terms[id]; p != nil { // nil only while a tab is being built
			out = append(out, p)
		}
	}
	return out
}

// TabRects are the rectangles panes are shown (and sized) at: the
// layout's, except that a zoomed tab's focused pane fills the whole area.
func (m *Model) TabRects(t *Tab) []layout.PaneRect {
	rects, _ := t.root.Compute(m.area)
	if t.zoomed {
		for i := range rects {
			if rects[i].ID == t.focused {
				rects[i].Rect = m.area
			}
		}
	}
	return rects
}

// RectOf is where terminal termID of t is shown.
func (m *Model) RectOf(t *Tab, termID string) layout.Rect {
	for _, r := range m.TabRects(t) {
		if r.ID == termID {
			return r.Rect
		}
	}
	return m.area
}
