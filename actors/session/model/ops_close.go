package model

import "github.com/herdr-go/herdr/protocol"

// The operations that close: a pane, a tab, a workspace (with its
// worktree group). Each closed pane says pane_closed and is forgotten at
// once; its actor stops on commit (Stop). A tab emptied by it says
// tab_closed and its actor retires, and the last tab takes its workspace
// (workspace_closed), focus moving to a neighbour.

// Stop stops a closed pane's actor and drops the session's record of its
// terminal.
type Stop struct{ Pane *Pane }

func (Stop) effect() {}

// PaneClose answers pane.close.
func (tx *Tx) PaneClose(env Env, _ *protocol.PaneTarget, p *Pane) (protocol.OK, Out, error) {
	return protocol.OK{}, tx.ClosePane(env, p), nil
}

// TabClose answers tab.close; its workspace's record changes, unless it
// closed with it.
func (tx *Tx) TabClose(env Env, _ *protocol.TabTarget, t *Tab) (protocol.OK, Out, error) {
	out := tx.CloseTab(env, t)
	out.Events = append(out.Events, tx.m.WorkspaceUpdated(env, t.ws).Events...)
	return protocol.OK{}, out, nil
}

// WorkspaceClose answers workspace.close: w closes with the workspaces of
// its worktree group when asked (CloseGroup), all of them or none.
func (tx *Tx) WorkspaceClose(env Env, prm *protocol.WorkspaceCloseParams, w *Workspace) (protocol.OK, Out, error) {
	group, err := tx.m.CloseGroup(w, prm.CloseGroup)
	if err != nil {
		return protocol.OK{}, Out{}, err
	}
	var out Out
	for _, x := range append(group, w) {
		tx.closeWorkspace(env, &out, x)
	}
	return protocol.OK{}, out, nil
}

// ClosePane closes a pane: its tab re-arranges, or closes when it was
// its last pane (and its workspace when that was the last tab).
func (tx *Tx) ClosePane(env Env, p *Pane) Out {
	var out Out
	tx.forget(env, &out, p)
	tx.detach(env, &out, p)
	return out
}

// CloseTab closes a tab and every pane in it.
func (tx *Tx) CloseTab(env Env, t *Tab) Out {
	var out Out
	tx.closeTab(env, &out, t)
	return out
}

// CloseWorkspace closes a workspace, every tab and pane in it.
func (tx *Tx) CloseWorkspace(env Env, w *Workspace) Out {
	var out Out
	tx.closeWorkspace(env, &out, w)
	return out
}

func (tx *Tx) closeTab(env Env, out *Out, t *Tab) {
	for _, p := range tx.m.TabPanes(t) {
		tx.forget(env, out, p)
	}
	tx.dropTab(env, out, t)
}

func (tx *Tx) closeWorkspace(env Env, out *Out, w *Workspace) {
	for len(w.tabs) > 0 && tx.m.byWorkspace[w.id] == w {
		tx.closeTab(env, out, w.tabs[0])
	}
}

// forget says pane_closed and removes a pane's ids (and the aliases it
// kept after moves); its leaf stays for detach or dropTab. An overlay
// still focused in its tab gives the focus back to the pane it covered,
// and the tab its zoom, before its leaf is taken out.
func (tx *Tx) forget(env Env, out *Out, p *Pane) {
	out.emit(env, protocol.PaneRefEvent{Kind: "pane_closed", PaneID: p.id, WorkspaceID: p.ws.id}, p)
	tx.Forget(p)
	out.do(Stop{p})
	if p.covers == "" || p.tab.focused != p.termID {
		return
	}
	if q := tx.m.terms[p.covers]; q != nil && q.tab == p.tab {
		tx.FocusInTab(p.tab, p.covers, p.coverZoomed)
	}
}

// detach takes a pane's leaf out of its tab, closing the tab (and its
// workspace) when it was the last one. It reports what closed.
func (tx *Tx) detach(env Env, out *Out, p *Pane) (closedTab, closedWorkspace string) {
	t := p.tab
	if tx.Detach(p) {
		closedTab = t.id
		if len(t.ws.tabs) == 1 {
			closedWorkspace = t.ws.id
		}
		tx.dropTab(env, out, t)
		return closedTab, closedWorkspace
	}
	out.do(Arrange{t})
	return "", ""
}

// dropTab removes an emptied tab; the last tab takes its workspace, and
// focus moves to a neighbour.
func (tx *Tx) dropTab(env Env, out *Out, t *Tab) {
	w := t.ws
	out.emit(env, protocol.TabRefEvent{Kind: "tab_closed", TabID: t.id, WorkspaceID: w.id}, t)
	out.do(Retire{t.id})
	if !tx.DropTab(t) {
		return
	}
	info := env.WorkspaceInfo(w)
	out.emit(env, protocol.WorkspaceClosedEvent{WorkspaceID: w.id, Workspace: &info}, w)
	out.do(Retire{w.id})
	tx.DropWorkspace(w)
}
