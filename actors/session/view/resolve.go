package view

import (
	"strconv"

	"github.com/herdr-go/herdr/protocol"
)

// The View resolves every id form the model does (model.Resolve*), so an
// actor holding only the newest View finds the same workspace, tab or
// pane the session would: current and former pane ids, positions, and
// Herdr's legacy forms. Each answers the index in Spaces, Tabs or Panes,
// or the kind's not-found error.

// ResolveWorkspace accepts "w1", a bare 1-based position, or the legacy "w_N".
func (v *View) ResolveWorkspace(id string) (int, error) {
	if i, ok := v.WSByID[id]; ok {
		return i, nil
	}
	if n, ok := protocol.LegacyWorkspacePos(id); ok && n <= len(v.Spaces) {
		return n - 1, nil
	}
	return -1, protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s not found", id)
}

// ResolveTab accepts "w1:t1" and the legacy position forms "w1:N" and
// "t_w1_N" (N 1-based).
func (v *View) ResolveTab(id string) (int, error) {
	id = protocol.CanonicalTabForm(id)
	if ws, kind, num, ok := protocol.SplitChildID(id); ok {
		if w, found := v.WSByID[ws]; found {
			s := &v.Spaces[w]
			if i, ok := v.TabByID[id]; ok && i >= s.FirstTab && i < s.TabEnd {
				return i, nil
			}
			if n, err := strconv.Atoi(string(kind) + num); err == nil && n >= 1 && n <= s.TabEnd-s.FirstTab {
				return s.FirstTab + n - 1, nil
			}
		}
	}
	return -1, protocol.Errorf(protocol.CodeTabNotFound, "tab %s not found", id)
}

// FutureTabID is model.FutureTabID over the View: the canonical id a
// legacy tab form names for a tab_created wait when no tab has it yet.
func (v *View) FutureTabID(id string) string {
	ws, n, ok := protocol.SplitLegacyTab(id)
	if !ok {
		return id
	}
	if w, err := v.ResolveWorkspace(ws); err == nil {
		ws = v.Spaces[w].Info.WorkspaceID
	}
	return protocol.TabID(ws, n)
}

// ResolvePane accepts a public pane id, current or former, and the legacy
// forms "w1-N", "p_N" and "p_w1_N" as model.ResolvePane does.
func (v *View) ResolvePane(id string) (int, error) {
	if i, ok := v.anyPaneID(id); ok {
		return i, nil
	}
	if i := v.legacyPane(id); i >= 0 {
		return i, nil
	}
	return -1, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
}

// IsFormer reports whether id is a pane id a pane had before it moved to
// another workspace (agents answer to their current ids only).
func (v *View) IsFormer(id string) bool {
	_, ok := v.Former[id]
	return ok
}

// anyPaneID is the pane a public id, current or former, names.
func (v *View) anyPaneID(id string) (int, bool) {
	if i, ok := v.PaneByID[id]; ok {
		return i, true
	}
	i, ok := v.Former[id]
	return i, ok
}

func (v *View) legacyPane(id string) int {
	ws, n, raw, ok := protocol.SplitLegacyPane(id)
	if !ok {
		return -1
	}
	if i := v.rawPane(n); i >= 0 && raw {
		if ws == "" {
			return i
		}
		if w, err := v.ResolveWorkspace(ws); err == nil && v.Rec(i).Info.WorkspaceID == v.Spaces[w].Info.WorkspaceID {
			return i
		}
	}
	if ws != "" {
		if i, ok := v.anyPaneID(protocol.PaneID(ws, n)); ok {
			return i
		}
		return -1
	}
	found := -1
	for w := range v.Spaces {
		if i, ok := v.PaneByID[protocol.PaneID(v.Spaces[w].Info.WorkspaceID, n)]; ok {
			if found >= 0 {
				return -1 // ambiguous
			}
			found = i
		}
	}
	return found
}

// rawPane is the index of the pane whose raw id is n, or -1.
func (v *View) rawPane(n uint64) int {
	for i, r := range v.Raw {
		if r == n {
			return i
		}
	}
	return -1
}
