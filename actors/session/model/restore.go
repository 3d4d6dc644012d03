package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Restored is a pane Restore placed, for the caller to start, with what the
// file kept of it.
type Restored struct {
	Pane  *Pane
	Saved SavedPane
}

// Restore builds a saved session into an empty model: the same workspace
// ids, tab and pane numbers and counters, order, trees and ratios, zoom,
// focus, names and pane labels, each pane with a new terminal id from
// newTerm. It returns the panes to start, in order. A file that
// contradicts itself (a pane in two places, a focus on no pane of its
// tab) is an error and the model is left empty.
func (m *Model) Restore(s *Saved, newTerm func() string) ([]Restored, error) {
	if len(m.Workspaces) > 0 {
		return nil, fmt.Errorf("restore into a model that is not empty")
	}
	var out []Restored
	// Saved ids are kept verbatim (a file may hold ids this release would
	// not make, like "wproj1"); the counter goes past every one it could.
	for _, sw := range s.Workspaces {
		if n, ok := workspaceNumber(sw.ID); ok {
			m.NextWS = max(m.NextWS, n)
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
	for i, sw := range s.Workspaces {
		id := ""
		if sw.ID != nil && strings.HasPrefix(*sw.ID, "w") && !strings.ContainsAny(*sw.ID, ":-_ ") && !used[*sw.ID] {
			id = *sw.ID
		} else {
			m.NextWS++ // missing, odd, or a second workspace with the same id
			id = protocol.WorkspaceID(m.NextWS)
		}
		used[id] = true
		panes, err := m.restoreWorkspace(id, sw, termFor)
		if err != nil {
			*m = *New(m.Area)
			return nil, fmt.Errorf("workspace %d: %w", i+1, err)
		}
		out = append(out, panes...)
	}
	m.UI = restoreUI(s)
	m.Focused = nil
	if s.Active != nil && *s.Active >= 0 && *s.Active < len(m.Workspaces) {
		m.Focused = m.Workspaces[*s.Active]
	} else if len(m.Workspaces) > 0 {
		m.Focused = m.Workspaces[0]
	}
	return out, nil
}

func workspaceNumber(id *string) (uint64, bool) {
	if id == nil || !strings.HasPrefix(*id, "w") {
		return 0, false
	}
	return protocol.DecodeNumber((*id)[1:])
}

func (m *Model) restoreWorkspace(id string, sw SavedWorkspace, newTerm func(SavedPane) string) ([]Restored, error) {
	w := &Workspace{ID: id, Cwd: sw.IdentityCwd, NextPane: sw.NextPublicPaneNumber, NextTab: sw.NextPublicTabNumber}
	w.NextPane, w.NextTab = max(w.NextPane, 1)-1, max(w.NextTab, 1)-1
	if sw.CustomName != nil {
		w.Label = *sw.CustomName
	}
	if wt := sw.WorktreeSpace; wt != nil && wt.CheckoutPath != "" {
		w.Worktree = &protocol.WorkspaceWorktreeInfo{RepoKey: wt.Key, RepoName: wt.Label, RepoRoot: wt.RepoRoot, CheckoutPath: wt.CheckoutPath, IsLinkedWorktree: wt.IsLinkedWorktree}
	}
	// Public numbers by raw number; raws the map lacks get new ones.
	public := map[uint64]uint64{}
	for raw, pub := range sw.PublicPaneNumbers {
		r, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || pub == 0 {
			return nil, fmt.Errorf("bad public pane number %q: %d", raw, pub)
		}
		public[r] = pub
		w.NextPane = max(w.NextPane, pub)
	}
	usedPublic, usedRaw := map[uint64]bool{}, map[uint64]bool{}
	var out []Restored
	for i, st := range sw.Tabs {
		raws := st.Layout.raws(nil)
		if len(raws) == 0 {
			continue // a tab with no panes is not restored
		}
		number := uint64(i + 1)
		if i < len(sw.PublicTabNumbers) && sw.PublicTabNumbers[i] > 0 {
			number = sw.PublicTabNumbers[i]
		}
		w.NextTab = max(w.NextTab, number)
		t := &Tab{ID: protocol.TabID(w.ID, number), WS: w, Zoomed: st.Zoomed}
		for _, x := range w.Tabs {
			if x.ID == t.ID {
				return nil, fmt.Errorf("tab number %d twice", number)
			}
		}
		if st.CustomName != nil {
			t.Label = *st.CustomName
		}
		terms := map[uint64]string{}
		for _, r := range raws {
			if usedRaw[r] {
				return nil, fmt.Errorf("pane %d is in two places", r)
			}
			usedRaw[r] = true
			pub, ok := public[r]
			if !ok {
				w.NextPane++
				pub = w.NextPane
			}
			if usedPublic[pub] {
				return nil, fmt.Errorf("public pane number %d twice", pub)
			}
			usedPublic[pub] = true
			sp := st.Panes[strconv.FormatUint(r, 10)]
			terms[r] = newTerm(sp)
			p := &Pane{ID: protocol.PaneID(w.ID, pub), TermID: terms[r], WS: w, Tab: t, Cwd: sp.Cwd}
			if sp.Label != nil {
				p.Label = *sp.Label
			}
			out = append(out, Restored{Pane: p, Saved: sp})
		}
		root, err := buildTree(st.Layout, terms)
		if err != nil {
			return nil, err
		}
		t.Root, t.Focused = root, root.Leaves()[0]
		if st.Focused != nil {
			id, ok := terms[*st.Focused]
			if !ok {
				return nil, fmt.Errorf("tab %d focuses pane %d, which it does not hold", number, *st.Focused)
			}
			t.Focused = id
		}
		w.Tabs = append(w.Tabs, t)
	}
	if len(w.Tabs) == 0 {
		return nil, nil // nothing to restore of it
	}
	w.Active = w.Tabs[0]
	if sw.ActiveTab >= 0 && sw.ActiveTab < len(w.Tabs) {
		w.Active = w.Tabs[sw.ActiveTab]
	}
	if w.Cwd == "" {
		w.Cwd = out[0].Pane.Cwd
	}
	m.Workspaces = append(m.Workspaces, w)
	m.byWorkspace[w.ID] = w
	for _, r := range out {
		m.panes[r.Pane.ID] = r.Pane
		m.terms[r.Pane.TermID] = r.Pane
	}
	return out, nil
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
