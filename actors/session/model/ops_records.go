package model

import "github.com/herdr-go/herdr/protocol"

// The operations on records: a pane's label, the announcements of what
// was made, and which workspaces close together.

// RenamePane sets a pane's label (nil or "" for none); the pane learns it,
// and pane_updated says so.
func (tx *Tx) RenamePane(env Env, p *Pane, label *string) (protocol.PaneInfoResult, Out) {
	var out Out
	tx.SetPaneLabel(p, deref(label))
	out.do(TellIDs{p})
	out.emit(env, protocol.PaneEvent{Kind: "pane_updated", Pane: env.PaneInfo(p)}, p)
	return protocol.PaneInfoResult{Pane: env.PaneInfo(p)}, out
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
