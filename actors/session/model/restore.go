package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Restored is a pane Restore placed, for the caller to start, with what the
// file kept of it; the caller fills in what starting it gave, for
// RestoreDone (ops_restore.go).
type Restored struct {
	Pane  *Pane
	Saved SavedPane
	// Cwd is the folder its new shell started in ("" when it goes on with
	// a terminal a live handoff brought), Why its restore_error ("" when
	// it came back as saved), and Failed says it did not start.
	Cwd, Why string
	Failed   bool
}

// Skipped is a part of a saved session Restore left out, and why: a
// whole workspace, or one tab of a workspace whose other tabs were
// restored.
type Skipped struct {
	// Workspace names the saved workspace: its id in the file, else its
	// place ("#2").
	Workspace string
	// Name is its custom name, if any.
	Name string
	// Tab is the tab's place in the workspace (from 1); 0 for the whole
	// workspace.
	Tab int
	Err error
}

func (s Skipped) String() string {
	what := "workspace " + s.Workspace
	if s.Name != "" {
		what += fmt.Sprintf(" (%q)", s.Name)
	}
	if s.Tab > 0 {
		what = fmt.Sprintf("tab %d of %s", s.Tab, what)
	}
	return fmt.Sprintf("%s: %v", what, s.Err)
}

// Restore builds a saved session into an empty model: the same workspace
// ids, tab and pane numbers and counters, order, trees and ratios, zoom,
// focus, names and pane labels, each pane with a new terminal id from
// newTerm. It returns the panes to start, in order, and what it left out:
// a workspace that contradicts itself (a pane in two places, a focus on
// no pane of its tab, a layout node that is neither pane nor split) or
// that has no pane at all is skipped whole, a tab whose layout holds no
// pane is skipped alone; the rest is restored. Only a model that is not
// empty is an error.
func (tx *Tx) Restore(s *Saved, newTerm func() string) ([]Restored, []Skipped, error) {
	m := tx.m
	if len(m.workspaces) > 0 {
		return nil, nil, fmt.Errorf("restore into a model that is not empty")
	}
	var out []Restored
	var skipped []Skipped
	// Saved ids are kept verbatim (a file may hold ids this release would
	// not make, like "wproj1"); the counter goes past every one it could.
	for _, sw := range s.Workspaces {
		if n, ok := workspaceNumber(sw.ID); ok {
			set(tx, &m.nextWS, max(m.nextWS, n))
		}
	}
	// A live handoff keeps terminal ids (a file never has them); each
	// is taken once.
	handedOff := map[string]bool{}
	termFor := func(sp SavedPane) string {
		if id := sp.TerminalID; id != "" && !handedOff[id] {
			handedOff[id] = true
			return id
		}
		return newTerm()
	}
	used := map[string]bool{}
	restoredAt := map[int]*Workspace{} // by place in the file, for "active"
	for i, sw := range s.Workspaces {
		id := ""
		if sw.ID != nil && strings.HasPrefix(*sw.ID, "w") && !strings.ContainsAny(*sw.ID, ":-_ ") && !used[*sw.ID] {
			id = *sw.ID
		} else {
			set(tx, &m.nextWS, m.nextWS+1) // missing, odd, or a second workspace with the same id
			id = protocol.WorkspaceID(m.nextWS)
		}
		used[id] = true
		name := fmt.Sprintf("#%d", i+1)
		if sw.ID != nil && *sw.ID != "" {
			name = *sw.ID
		}
		skip := Skipped{Workspace: name}
		if sw.CustomName != nil {
			skip.Name = *sw.CustomName
		}
		w, panes, emptyTabs, err := tx.restoreWorkspace(id, sw, termFor)
		if err != nil {
			skip.Err = err
			skipped = append(skipped, skip)
			continue
		}
		for _, tab := range emptyTabs {
			s := skip
			s.Tab, s.Err = tab, errors.New("its layout holds no pane")
			skipped = append(skipped, s)
		}
		restoredAt[i] = w
		out = append(out, panes...)
	}
	var focused *Workspace
	if s.Active != nil && restoredAt[*s.Active] != nil {
		focused = restoredAt[*s.Active]
	} else if len(m.workspaces) > 0 {
		focused = m.workspaces[0]
	}
	tx.FocusWorkspace(focused)
	return out, skipped, nil
}

func workspaceNumber(id *string) (uint64, bool) {
	if id == nil || !strings.HasPrefix(*id, "w") {
		return 0, false
	}
	return protocol.DecodeNumber((*id)[1:])
}

// restoreWorkspace adds one saved workspace to the model, or nothing and
// an error (the model untouched). emptyTabs are the places of tabs left
// out because their layout holds no pane; the workspace is kept without
// them when it has another tab.
func (tx *Tx) restoreWorkspace(id string, sw SavedWorkspace, newTerm func(SavedPane) string) (w *Workspace, out []Restored, emptyTabs []int, err error) {
	w = &Workspace{id: id, cwd: sw.IdentityCwd, nextPane: sw.NextPublicPaneNumber, nextTab: sw.NextPublicTabNumber}
	w.nextPane, w.nextTab = max(w.nextPane, 1)-1, max(w.nextTab, 1)-1
	if sw.CustomName != nil {
		w.label = *sw.CustomName
	}
	if wt := sw.WorktreeSpace; wt != nil && wt.CheckoutPath != "" {
		w.worktree = &protocol.WorkspaceWorktreeInfo{RepoKey: wt.Key, RepoName: wt.Label, RepoRoot: wt.RepoRoot, CheckoutPath: wt.CheckoutPath, IsLinkedWorktree: wt.IsLinkedWorktree}
	}
	// Public numbers by raw number; raws the map lacks get new ones.
	public := map[uint64]uint64{}
	for raw, pub := range sw.PublicPaneNumbers {
		r, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || pub == 0 {
			return nil, nil, emptyTabs, fmt.Errorf("bad public pane number %q: %d", raw, pub)
		}
		public[r] = pub
		w.nextPane = max(w.nextPane, pub)
	}
	usedPublic, usedRaw := map[uint64]bool{}, map[uint64]bool{}
	tabAt := map[int]*Tab{} // by place in the file, for "active_tab"
	for i, st := range sw.Tabs {
		raws := st.Layout.raws(nil)
		if len(raws) == 0 {
			emptyTabs = append(emptyTabs, i+1)
			continue
		}
		number := uint64(i + 1)
		if i < len(sw.PublicTabNumbers) && sw.PublicTabNumbers[i] > 0 {
			number = sw.PublicTabNumbers[i]
		}
		w.nextTab = max(w.nextTab, number)
		t := &Tab{id: protocol.TabID(w.id, number), ws: w, zoomed: st.Zoomed}
		for _, x := range w.tabs {
			if x.id == t.id {
				return nil, nil, emptyTabs, fmt.Errorf("tab number %d twice", number)
			}
		}
		if st.CustomName != nil {
			t.label = *st.CustomName
		}
		terms := map[uint64]string{}
		for _, r := range raws {
			if usedRaw[r] {
				return nil, nil, emptyTabs, fmt.Errorf("pane %d is in two places", r)
			}
			usedRaw[r] = true
			pub, ok := public[r]
			if !ok {
				w.nextPane++
				pub = w.nextPane
			}
			if usedPublic[pub] {
				return nil, nil, emptyTabs, fmt.Errorf("public pane number %d twice", pub)
			}
			usedPublic[pub] = true
			sp := st.Panes[strconv.FormatUint(r, 10)]
			terms[r] = newTerm(sp)
			p := &Pane{id: protocol.PaneID(w.id, pub), termID: terms[r], ws: w, tab: t, cwd: sp.Cwd}
			if sp.CreatedCwd != "" {
				p.cwd, p.liveCwd = sp.CreatedCwd, sp.Cwd
			}
			if sp.Label != nil {
				p.label = *sp.Label
			}
			out = append(out, Restored{Pane: p, Saved: sp})
		}
		root, err := buildTree(st.Layout, terms)
		if err != nil {
			return nil, nil, emptyTabs, err
		}
		t.root, t.focused = root, root.Leaves()[0]
		if st.Focused != nil {
			id, ok := terms[*st.Focused]
			if !ok {
				return nil, nil, emptyTabs, fmt.Errorf("tab %d focuses pane %d, which it does not hold", number, *st.Focused)
			}
			t.focused = id
		}
		w.tabs = append(w.tabs, t)
		tabAt[i] = t
	}
	if len(w.tabs) == 0 {
		return nil, nil, emptyTabs, errors.New("no tab whose layout holds a pane")
	}
	w.active = w.tabs[0]
	if t := tabAt[sw.ActiveTab]; t != nil {
		w.active = t
	}
	if w.cwd == "" {
		w.cwd = out[0].Pane.cwd
	}
	m := tx.m
	set(tx, &m.workspaces, append(m.workspaces, w))
	setKey(tx, m.byWorkspace, w.id, w)
	for _, r := range out {
		setKey(tx, m.panes, r.Pane.id, r.Pane)
		setKey(tx, m.terms, r.Pane.termID, r.Pane)
	}
	return w, out, emptyTabs, nil
}

func buildTree(n SavedNode, terms map[uint64]string) (*layout.Node, error) {
	switch {
	case n.Pane != nil:
		return layout.NewLeaf(terms[*n.Pane]), nil
	case n.Split != nil:
		dir := layout.SplitRight
		switch n.Split.Direction {
		case "Horizontal":
		case "Vertical":
			dir = layout.SplitDown
		default:
			return nil, fmt.Errorf("unknown split direction %q", n.Split.Direction)
		}
		first, err := buildTree(n.Split.First, terms)
		if err != nil {
			return nil, err
		}
		second, err := buildTree(n.Split.Second, terms)
		if err != nil {
			return nil, err
		}
		return &layout.Node{Dir: dir, Ratio: layout.ClampRatio(n.Split.Ratio), First: first, Second: second}, nil
	}
	return nil, fmt.Errorf("a layout node with neither Pane nor Split")
}

// SetRestoreError records why a restored pane did not come back as saved.
func (tx *Tx) SetRestoreError(p *Pane, why string) { set(tx, &p.restoreError, why) }
