package model

import "github.com/herdr-go/herdr/protocol"

// The operations on records: focus, a pane's label, the announcements of
// what was made, and which workspaces close together.

// WorkspaceFocus focuses a workspace; the focus events follow from the
// commit's before and after.
func (tx *Tx) WorkspaceFocus(env Env, _ *protocol.WorkspaceTarget, w *Workspace) (protocol.WorkspaceInfoResult, Out, error) {
	tx.FocusWorkspace(w)
	return protocol.WorkspaceInfoResult{Workspace: env.WorkspaceInfo(w)}, Out{}, nil
}

// TabFocus focuses a tab and its workspace.
func (tx *Tx) TabFocus(env Env, _ *protocol.TabTarget, t *Tab) (protocol.TabInfoResult, Out, error) {
	tx.FocusTab(t)
	return protocol.TabInfoResult{Tab: env.TabInfo(t)}, Out{}, nil
}

// PaneFocus focuses a pane, its tab and its workspace.
func (tx *Tx) PaneFocus(env Env, _ *protocol.PaneTarget, p *Pane) (protocol.PaneInfoResult, Out, error) {
	tx.FocusPane(p)
	return protocol.PaneInfoResult{Pane: env.PaneInfo(p)}, Out{}, nil
}

// PaneRename sets a pane's label (none or "" for none); the pane learns
// it, and pane_updated says so.
func (tx *Tx) PaneRename(env Env, prm *protocol.PaneRenameParams, p *Pane) (protocol.PaneInfoResult, Out, error) {
	var out Out
	tx.SetPaneLabel(p, deref(prm.Label))
	out.do(TellIDs{p})
	out.emit(env, protocol.PaneEvent{Kind: "pane_updated", Pane: env.PaneInfo(p)}, p)
	return protocol.PaneInfoResult{Pane: env.PaneInfo(p)}, out, nil
}

// Created announces a new workspace, tab and/or pane (nil = not new), in
// that order.
func Created(env Env, w *Workspace, t *Tab, p *Pane) Out {
	var out Out
	if w != nil {
		out.emit(env, protocol.WorkspaceEvent{Kind: "workspace_created", Workspace: env.WorkspaceInfo(w)}, w)
	}
	if t != nil {
		out.emit(env, protocol.TabCreatedEvent{Tab: env.TabInfo(t)}, t)
	}
	if p != nil {
		out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: env.PaneInfo(p)}, p)
	}
	return out
}

// WorkspaceUpdated announces a change of a workspace's record (its tabs),
// unless it is gone.
func (m *Model) WorkspaceUpdated(env Env, w *Workspace) Out {
	var out Out
	if m.byWorkspace[w.id] == w {
		out.emit(env, protocol.WorkspaceEvent{Kind: "workspace_updated", Workspace: env.WorkspaceInfo(w)}, w)
	}
	return out
}

// CloseGroup is the other workspaces that close with w. A main
// checkout's workspace whose worktrees are open closes only with
// closeGroup, and then with them; closeGroup on a worktree's workspace
// closes its whole group (the main checkout's and every worktree's), as
// the client's "close group" does. Without it a worktree's workspace
// closes alone.
func (m *Model) CloseGroup(w *Workspace, closeGroup bool) ([]*Workspace, error) {
	var group []*Workspace
	if wt := w.worktree; wt != nil && (closeGroup || !wt.IsLinkedWorktree) {
		for _, x := range m.workspaces {
			if x != w && x.worktree != nil && x.worktree.RepoKey == wt.RepoKey && (x.worktree.IsLinkedWorktree || wt.IsLinkedWorktree) {
				group = append(group, x)
			}
		}
	}
	if len(group) > 0 && !closeGroup {
		return nil, protocol.Errorf(protocol.CodeGroupCloseRequired, "workspace %s has %d worktree workspaces open; close them first or pass close_group", w.id, len(group))
	}
	return group, nil
}

// WorkspaceChanged takes in what a workspace's actor holds now (its label
// and reported tokens) and announces the change its event names.
func (tx *Tx) WorkspaceChanged(env Env, w *Workspace, label string, tokens map[string]string, event string) Out {
	var out Out
	tx.SetWorkspaceRecord(w, label, tokens)
	switch event {
	case "workspace_renamed":
		out.emit(env, protocol.WorkspaceRenamedEvent{WorkspaceID: w.ID(), Label: w.Label()}, w)
	case "workspace_metadata_updated":
		out.emit(env, protocol.WorkspaceEvent{Kind: "workspace_metadata_updated", Workspace: env.WorkspaceInfo(w)}, w)
	}
	return out
}

// TabChanged takes in a tab actor's label and announces a rename.
func (tx *Tx) TabChanged(env Env, t *Tab, label, event string) Out {
	var out Out
	tx.SetTabLabel(t, label)
	if event == "tab_renamed" {
		out.emit(env, protocol.TabRenamedEvent{TabID: t.ID(), WorkspaceID: t.WS().ID(), Label: env.TabInfo(t).Label}, t)
	}
	return out
}
