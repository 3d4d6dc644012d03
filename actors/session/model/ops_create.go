package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The calls that make a pane run in three steps, because its terminal
// starts in between, which is the session's: the model decides where it
// goes and in which folder by default (WorkspaceCwd, TabPlace, SplitCwd,
// SplitAt), the session checks the folder and starts it, and the model
// finishes the call (WorkspaceMade, TabMade, SplitDone): focus, events,
// answer. A start that fails fails the call, whose transaction is
// discarded.

// WorkspaceCwd is the folder a new workspace starts in unless the call
// names one: the one it follows from its source workspace ("follow" in
// [terminal] new_cwd), else the focused workspace's.
func (m *Model) WorkspaceCwd(env Env, prm *protocol.WorkspaceCreateParams) (string, error) {
	if prm.SourceWorkspaceID != nil {
		src, err := m.ResolveWorkspace(*prm.SourceWorkspaceID)
		if err != nil {
			return "", err // workspace_not_found, before anything is made
		}
		return m.FollowCwd(env, src), nil
	}
	if m.focused != nil {
		return m.focused.cwd, nil
	}
	return "", nil
}

// FollowCwd is the folder a new workspace follows from w: where w's
// focused pane's foreground process is, else where that pane started,
// else w's own folder.
func (m *Model) FollowCwd(env Env, w *Workspace) string {
	if w.active != nil {
		if p := m.terms[w.active.focused]; p != nil {
			if f := env.Folder(p); f != "" {
				return f
			}
			if p.cwd != "" {
				return p.cwd
			}
		}
	}
	return w.cwd
}

// WorkspaceMade finishes workspace.create once w's first pane runs.
func (tx *Tx) WorkspaceMade(env Env, prm *protocol.WorkspaceCreateParams, w *Workspace) (protocol.WorkspaceCreated, Out) {
	if prm.Focus {
		tx.FocusWorkspace(w)
	}
	root := tx.m.terms[w.active.focused]
	out := Created(env, w, w.active, root)
	return protocol.WorkspaceCreated{Workspace: env.WorkspaceInfo(w), Tab: env.TabInfo(w.active), RootPane: env.PaneInfo(root)}, out
}

// TabPlace is the workspace a new tab goes to (the named one, else the
// focused one) and the folder it starts in unless the call names one:
// the workspace's focused pane's foreground folder, else its own.
func (m *Model) TabPlace(env Env, prm *protocol.TabCreateParams) (*Workspace, string, error) {
	w := m.focused
	if prm.WorkspaceID != nil {
		var err error
		if w, err = m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return nil, "", err
		}
	}
	if w == nil {
		return nil, "", protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first")
	}
	cwd := w.cwd
	if p := m.terms[w.active.focused]; p != nil {
		if f := env.Folder(p); f != "" {
			cwd = f
		}
	}
	return w, cwd, nil
}

// TabMade finishes tab.create once t's first pane runs.
func (tx *Tx) TabMade(env Env, prm *protocol.TabCreateParams, t *Tab) (protocol.TabCreated, Out) {
	if prm.Focus {
		tx.FocusTab(t)
	}
	root := tx.m.terms[t.focused]
	out := Created(env, nil, t, root)
	up := tx.m.WorkspaceUpdated(env, t.ws)
	out.Events = append(out.Events, up.Events...)
	return protocol.TabCreated{Tab: env.TabInfo(t), RootPane: env.PaneInfo(root)}, out
}

// SplitCwd is the folder a pane split from src starts in unless the call
// names one: src's foreground folder, else where src started.
func (m *Model) SplitCwd(env Env, src *Pane) string {
	if f := env.Folder(src); f != "" {
		return f
	}
	return src.cwd
}

// SplitAt makes room beside src for terminal termID, which takes ratio of
// src's place on dir's side; the tab unzooms. It returns where the new
// pane shows, the size its terminal starts at.
func (tx *Tx) SplitAt(src *Pane, termID string, dir layout.Direction, ratio float64) layout.Rect {
	t := src.tab
	tx.EditTree(t, func(root *layout.Node) bool { return root.Split(src.termID, termID, dir, ratio) })
	tx.FocusInTab(t, t.focused, false)
	return tx.m.RectOf(t, termID)
}

// SplitDone finishes pane.split once p runs: its tab is re-arranged, it
// takes what right-clicking it does and the focus when asked, and
// pane_created says so.
func (tx *Tx) SplitDone(env Env, prm *protocol.PaneSplitParams, p *Pane) (protocol.PaneInfoResult, Out) {
	var out Out
	out.do(Arrange{p.tab})
	if prm.RightClick != "" {
		tx.SetRightClick(p, prm.RightClick)
		out.do(TellRightClick{p})
	}
	if prm.Focus {
		tx.FocusPane(p)
	}
	out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: env.PaneInfo(p)}, p)
	return protocol.PaneInfoResult{Pane: env.PaneInfo(p)}, out
}

// ApplyTarget is where layout.apply builds its tab: the workspace of the
// tab it replaces (tab_id), else the named workspace, else the focused
// one.
func (m *Model) ApplyTarget(prm *protocol.LayoutApplyParams) (w *Workspace, replaced *Tab, err error) {
	w = m.focused
	if prm.TabID != nil && *prm.TabID != "" {
		if replaced, err = m.ResolveTab(*prm.TabID); err != nil {
			return nil, nil, err
		}
		w = replaced.ws
	}
	if prm.WorkspaceID != nil && *prm.WorkspaceID != "" {
		if replaced != nil {
			return nil, nil, protocol.Errorf("invalid_target", "use either tab_id or workspace_id, not both")
		}
		if w, err = m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return nil, nil, err
		}
	}
	if w == nil {
		return nil, nil, protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first")
	}
	return w, replaced, nil
}

// ApplyTab adds the tab layout.apply builds in w with its tree, whose
// leaves' terminals the session then starts. It takes the label asked
// for, else the replaced tab's.
func (tx *Tx) ApplyTab(prm *protocol.LayoutApplyParams, w *Workspace, replaced *Tab, root *layout.Node) (*Tab, Out) {
	var out Out
	label := ""
	switch {
	case prm.TabLabel != nil:
		label = *prm.TabLabel
	case replaced != nil:
		label = replaced.label
	}
	t := tx.newTab(&out, w, label)
	tx.SetRoot(t, root, root.Leaves()[0])
	return t, out
}

// ApplyDone finishes layout.apply once every pane of t runs: the tab and
// its panes are announced and arranged, and it takes the focus when asked
// or when the tab it replaces had it.
func (tx *Tx) ApplyDone(env Env, prm *protocol.LayoutApplyParams, t, replaced *Tab) Out {
	out := Created(env, nil, t, nil)
	for _, p := range tx.m.TabPanes(t) {
		out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: env.PaneInfo(p)}, p)
	}
	out.do(Arrange{t})
	if prm.Focus || (replaced != nil && tx.m.TabFocused(replaced)) {
		tx.FocusTab(t)
	}
	return out
}
