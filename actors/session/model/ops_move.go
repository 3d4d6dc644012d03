package model

import (
	"slices"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The operations that move things: a pane to another tab, a new tab or a
// new workspace; workspaces and tabs within their order.

// MovePane moves a running pane. The destination is built before the
// source is emptied, so an emptied source tab or workspace closes only
// after the pane has a home.
func (tx *Tx) MovePane(env Env, prm *protocol.PaneMoveParams) (protocol.PaneMove, Out, error) {
	m := tx.m
	var out Out
	p, err := m.ResolvePane(prm.PaneID)
	if err != nil {
		return protocol.PaneMove{}, out, err
	}
	src := p.tab
	res := protocol.PaneMoveResult{PreviousPaneID: p.id, PreviousTabID: src.id, PreviousWorkspaceID: p.ws.id}
	d := prm.Destination
	var dst *Tab
	switch d.Type {
	case "tab":
		if dst, err = m.ResolveTab(d.TabID); err != nil {
			return protocol.PaneMove{}, out, err
		}
		if dst == src || src.zoomed || dst.zoomed {
			res.Reason = reason("same_tab")
			if dst != src {
				res.Reason = reason("zoomed_tab")
			}
			res.Pane, res.TargetLayout = env.PaneInfo(p), env.Layout(dst)
			res.FocusedPaneID = m.terms[dst.focused].id
			return protocol.PaneMove{MoveResult: res}, out, nil
		}
		target := m.terms[dst.focused]
		if d.TargetPaneID != nil && *d.TargetPaneID != "" {
			if target = m.Pane(*d.TargetPaneID); target == nil || target.tab != dst {
				return protocol.PaneMove{}, out, protocol.Errorf("target_pane_not_found", "pane %s is not in tab %s", *d.TargetPaneID, dst.id)
			}
		}
		ratio := 0.5
		if d.Ratio != nil {
			ratio = *d.Ratio
		}
		tx.EditTree(dst, func(root *layout.Node) bool {
			return root.Split(target.termID, p.termID, layout.Direction(d.Split), ratio)
		})
	case "new_tab":
		w := p.ws
		if d.WorkspaceID != nil && *d.WorkspaceID != "" {
			if w, err = m.ResolveWorkspace(*d.WorkspaceID); err != nil {
				return protocol.PaneMove{}, out, err
			}
		}
		dst = tx.newTab(&out, w, deref(d.Label))
		tx.SetRoot(dst, layout.NewLeaf(p.termID), p.termID)
		res.CreatedTab = &protocol.TabInfo{}
	case "new_workspace":
		cwd := p.cwd
		if f := env.Folder(p); f != "" {
			cwd = f
		}
		w := tx.AddWorkspace(deref(d.Label), cwd, env.AutoLabel(cwd))
		out.do(Start{w})
		dst = tx.newTab(&out, w, deref(d.TabLabel))
		tx.SetRoot(dst, layout.NewLeaf(p.termID), p.termID)
		res.CreatedTab = &protocol.TabInfo{}
		res.CreatedWorkspace = &protocol.WorkspaceInfo{}
	default: // refused when the params were decoded; no write yet
		return protocol.PaneMove{}, out, protocol.ParamError("destination.type", "expected one of [tab new_tab new_workspace], got %q", d.Type)
	}
	closedTab, closedWorkspace := tx.detach(env, &out, p)
	tx.Rehome(p, dst)
	out.do(TellIDs{p})
	if prm.Focus {
		tx.FocusPane(p)
	}
	out.do(Arrange{dst})
	res.Changed = true
	res.Pane = env.PaneInfo(p)
	res.TargetLayout = env.Layout(dst)
	res.FocusedPaneID = m.terms[dst.focused].id
	if closedTab != "" {
		res.ClosedTabID = protocol.Ptr(closedTab)
	} else {
		res.SourceLayout = protocol.Ptr(env.Layout(src))
	}
	if closedWorkspace != "" {
		res.ClosedWorkspaceID = protocol.Ptr(closedWorkspace)
	}
	if res.CreatedWorkspace != nil {
		res.CreatedWorkspace = protocol.Ptr(env.WorkspaceInfo(dst.ws))
		out.emit(env, protocol.WorkspaceEvent{Kind: "workspace_created", Workspace: *res.CreatedWorkspace}, dst.ws)
	}
	if res.CreatedTab != nil {
		res.CreatedTab = protocol.Ptr(env.TabInfo(dst))
		out.emit(env, protocol.TabCreatedEvent{Tab: *res.CreatedTab}, dst)
	}
	out.emit(env, protocol.PaneMovedEvent{
		Pane: res.Pane, PreviousPaneID: res.PreviousPaneID, PreviousTabID: res.PreviousTabID,
		PreviousWorkspaceID: res.PreviousWorkspaceID, ClosedTabID: res.ClosedTabID, ClosedWorkspaceID: res.ClosedWorkspaceID,
		CreatedTab: res.CreatedTab, CreatedWorkspace: res.CreatedWorkspace,
	}, p)
	return protocol.PaneMove{MoveResult: res}, out, nil
}

// newTab appends an empty tab to w whose actor starts on commit; the
// caller gives it a root at once.
func (tx *Tx) newTab(out *Out, w *Workspace, label string) *Tab {
	t := tx.AddTab(w, label)
	out.do(Start{t})
	return t
}

// MoveWorkspace moves a workspace to an index (clamped) of the order.
func (tx *Tx) MoveWorkspace(env Env, prm *protocol.WorkspaceMoveParams) (protocol.WorkspaceList, Out, error) {
	var out Out
	if prm.InsertIndex == nil {
		return protocol.WorkspaceList{}, out, prm.Validate() // params that skipped their check
	}
	w, err := tx.m.ResolveWorkspace(prm.WorkspaceID)
	if err != nil {
		return protocol.WorkspaceList{}, out, err
	}
	tx.MoveWorkspaces(MoveTo(slices.Clone(tx.m.workspaces), slices.Index(tx.m.workspaces, w), *prm.InsertIndex))
	list := workspaceInfos(env, tx.m)
	out.emit(env, protocol.WorkspaceMovedEvent{WorkspaceID: w.id, InsertIndex: *prm.InsertIndex, Workspaces: list.Workspaces}, w)
	return list, out, nil
}

// MoveWorkspaceBlock moves the listed workspaces, in the given order, in
// front of the anchor (or to the end). All ids are checked first.
func (tx *Tx) MoveWorkspaceBlock(env Env, prm *protocol.WorkspaceMoveBlockParams) (protocol.WorkspaceList, Out, error) {
	var out Out
	block := make([]*Workspace, 0, len(prm.WorkspaceIDs))
	for _, id := range prm.WorkspaceIDs {
		w, err := tx.m.ResolveWorkspace(id)
		if err != nil {
			return protocol.WorkspaceList{}, out, err
		}
		if slices.Contains(block, w) {
			return protocol.WorkspaceList{}, out, protocol.ParamError("workspace_ids", "%s is listed twice", id)
		}
		block = append(block, w)
	}
	var anchor *Workspace
	if prm.BeforeWorkspaceID != nil && *prm.BeforeWorkspaceID != "" {
		var err error
		if anchor, err = tx.m.ResolveWorkspace(*prm.BeforeWorkspaceID); err != nil {
			return protocol.WorkspaceList{}, out, err
		}
		if slices.Contains(block, anchor) {
			return protocol.WorkspaceList{}, out, protocol.ParamError("before_workspace_id", "the anchor %s is part of the block", anchor.id)
		}
	}
	rest := slices.DeleteFunc(slices.Clone(tx.m.workspaces), func(w *Workspace) bool { return slices.Contains(block, w) })
	at := len(rest)
	if anchor != nil {
		at = slices.Index(rest, anchor)
	}
	tx.MoveWorkspaces(slices.Insert(rest, at, block...))
	list := workspaceInfos(env, tx.m)
	out.emit(env, protocol.WorkspaceReorderedEvent{WorkspaceIDs: prm.WorkspaceIDs, BeforeWorkspaceID: prm.BeforeWorkspaceID, Workspaces: list.Workspaces}, nil)
	return list, out, nil
}

// MoveTabTo moves a tab to an index (clamped) among its workspace's tabs.
func (tx *Tx) MoveTabTo(env Env, prm *protocol.TabMoveParams) (protocol.TabList, Out, error) {
	var out Out
	if prm.InsertIndex == nil {
		return protocol.TabList{}, out, prm.Validate() // params that skipped their check
	}
	t, err := tx.m.ResolveTab(prm.TabID)
	if err != nil {
		return protocol.TabList{}, out, err
	}
	w := t.ws
	tx.MoveTab(t, *prm.InsertIndex)
	tabs := make([]protocol.TabInfo, 0, len(w.tabs))
	for _, x := range w.tabs {
		tabs = append(tabs, env.TabInfo(x))
	}
	out.emit(env, protocol.TabMovedEvent{TabID: t.id, WorkspaceID: w.id, InsertIndex: *prm.InsertIndex, Tabs: tabs}, t)
	return protocol.TabList{Tabs: tabs}, out, nil
}

// workspaceInfos renders every workspace in order.
func workspaceInfos(env Env, m *Model) protocol.WorkspaceList {
	out := make([]protocol.WorkspaceInfo, 0, len(m.workspaces))
	for _, w := range m.workspaces {
		out = append(out, env.WorkspaceInfo(w))
	}
	return protocol.WorkspaceList{Workspaces: out}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
