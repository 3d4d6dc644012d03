package audit

import (
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Filter narrows this server's list answers (workspace, tab, pane and
// agent lists, the session snapshot) to the workspaces a policy with a
// workspace limit allows, so a limited connection does not see the rest
// in them; any other result, and any result without such a policy, is
// returned as it is. Another machine's answers (already encoded) pass
// unchanged.
func Filter(p *config.Policy, loc Locator, result protocol.Result) protocol.Result {
	if p == nil || p.Workspaces == nil || loc == nil {
		return result
	}
	ok := func(ws string) bool {
		at, err := loc.Locate(KindWorkspace, ws)
		return err == nil && allows(p, at)
	}
	switch r := result.(type) {
	case protocol.WorkspaceList:
		r.Workspaces = keep(r.Workspaces, func(w protocol.WorkspaceInfo) bool { return ok(w.WorkspaceID) })
		return r
	case protocol.TabList:
		r.Tabs = keep(r.Tabs, func(t protocol.TabInfo) bool { return ok(t.WorkspaceID) })
		return r
	case protocol.PaneList:
		r.Panes = keep(r.Panes, func(p protocol.PaneInfo) bool { return ok(p.WorkspaceID) })
		return r
	case protocol.AgentList:
		r.Agents = keep(r.Agents, func(a protocol.AgentInfo) bool { return ok(a.WorkspaceID) })
		return r
	case protocol.SessionSnapshotResult:
		r.Snapshot = filterSnapshot(r.Snapshot, ok)
		return r
	}
	return result
}

// filterSnapshot is a snapshot of the allowed workspaces only (the
// focus, when elsewhere, is left out).
func filterSnapshot(r protocol.SessionSnapshot, ok func(string) bool) protocol.SessionSnapshot {
	if r.FocusedWorkspaceID != nil && !ok(*r.FocusedWorkspaceID) {
		r.FocusedWorkspaceID, r.FocusedTabID, r.FocusedPaneID = nil, nil, nil
	}
	tabs := map[string]bool{}
	r.Workspaces = keep(r.Workspaces, func(w protocol.WorkspaceInfo) bool { return ok(w.WorkspaceID) })
	r.Tabs = keep(r.Tabs, func(t protocol.TabInfo) bool {
		tabs[t.TabID] = ok(t.WorkspaceID)
		return tabs[t.TabID]
	})
	r.Panes = keep(r.Panes, func(p protocol.PaneInfo) bool { return ok(p.WorkspaceID) })
	r.Layouts = keep(r.Layouts, func(l protocol.PaneLayoutSnapshot) bool { return tabs[l.TabID] })
	r.Agents = keep(r.Agents, func(a protocol.AgentInfo) bool { return ok(a.WorkspaceID) })
	return r
}

// keep is the items of list for which f holds, in a new slice (the
// answer may share its slice with the published View).
func keep[T any](list []T, f func(T) bool) []T {
	out := make([]T, 0, len(list))
	for _, x := range list {
		if f(x) {
			out = append(out, x)
		}
	}
	return out
}
