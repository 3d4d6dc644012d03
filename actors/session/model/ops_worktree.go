package model

import (
	"slices"

	"github.com/herdr-go/herdr/protocol"
)

// Worktrees: the worktrees actor runs git and, when a checkout's
// workspace must open or close, asks the session with one message
// (worktrees.OpenCheckout, CloseCheckout), which runs these operations.
// Git has done its work by then, so a source workspace that closed
// meanwhile is refused with what git did (workspace_not_found).

// Checkout is a checkout a worktree call opens: the workspace the call
// came from, which joins the checkout's group as Source when it has no
// place in one yet (its repository and its own checkout), the checkout,
// the new workspace's label, whether it takes the focus, and whether git
// has just created the checkout (worktree.create) or found it
// (worktree.open).
type Checkout struct {
	SourceID string
	Source   protocol.WorkspaceWorktreeInfo
	Tree     protocol.WorktreeInfo
	Label    *string
	Focus    bool
	Created  bool
}

// sourceGone refuses a finished worktree call whose source workspace
// closed while git ran; done says what git did meanwhile.
func (m *Model) sourceGone(id, done string) error {
	if id == "" || m.byWorkspace[id] != nil {
		return nil
	}
	return protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s closed during the worktree operation; %s", id, done)
}

// OpenCheckout places the workspace on c's checkout: the first one open
// on it, focused when asked, unless the checkout is new; else a new
// workspace in the checkout's folder, its provenance set, right after
// the last workspace of its repository, focused when asked. It returns
// the workspace and, when it is new, its first pane to start.
func (tx *Tx) OpenCheckout(env Env, c Checkout, st Starts) (*Workspace, Placed, error) {
	m := tx.m
	done := "the checkout " + c.Tree.Path + " is there but was not opened"
	if c.Created {
		done = "the checkout " + c.Tree.Path + " was created but not opened"
	}
	if err := m.sourceGone(c.SourceID, done); err != nil {
		return nil, Placed{}, err
	}
	if !c.Created {
		for _, w := range m.workspaces {
			if w.worktree != nil && w.worktree.CheckoutPath == c.Tree.Path {
				if c.Focus {
					tx.FocusWorkspace(w)
				}
				return w, Placed{}, nil
			}
		}
	}
	var pl Placed
	// A source workspace with no provenance joins the group as its main checkout.
	if src := m.byWorkspace[c.SourceID]; src != nil && src.worktree == nil {
		tx.SetWorktree(src, protocol.Ptr(c.Source))
		pl.Events = append(pl.Events, m.WorkspaceUpdated(env, src).Events...)
	}
	sub := tx.newWorkspace(env, deref(c.Label), Program{Cwd: c.Tree.Path}, st.TermID())
	pl.Events, pl.Effects, pl.Slots = append(pl.Events, sub.Events...), append(pl.Effects, sub.Effects...), sub.Slots
	w := pl.Pane().ws
	info := c.Source
	info.CheckoutPath, info.IsLinkedWorktree = c.Tree.Path, c.Tree.IsLinkedWorktree
	tx.SetWorktree(w, &info)
	last := -1 // grouped: after the last workspace of the same repository
	for i, x := range m.workspaces {
		if x != w && x.worktree != nil && x.worktree.RepoKey == info.RepoKey {
			last = i
		}
	}
	if from := slices.Index(m.workspaces, w); last >= 0 && last+1 < from {
		tx.MoveWorkspaces(MoveTo(slices.Clone(m.workspaces), from, last+1))
	}
	if c.Focus {
		tx.FocusWorkspace(w)
	}
	return w, pl, nil
}

// CheckoutOpened finishes worktree.create or worktree.open once the
// workspace's pane runs: the workspace, tab and pane made (made: it is
// new) are announced, then worktree_created or worktree_opened.
func (tx *Tx) CheckoutOpened(env Env, c Checkout, w *Workspace, made bool) (protocol.Result, Out, error) {
	var out Out
	if made {
		out = Created(env, w, w.active, tx.m.terms[w.active.focused])
	}
	ws, t, root := env.WorkspaceInfo(w), env.TabInfo(w.active), env.PaneInfo(tx.m.terms[w.active.focused])
	tree := c.Tree
	if c.Created {
		out.emit(env, protocol.WorktreeCreatedEvent{Workspace: ws, Worktree: tree}, w)
		return protocol.WorktreeCreated{Workspace: ws, Tab: t, RootPane: root, Worktree: tree}, out, nil
	}
	tree.OpenWorkspaceID = protocol.Ptr(w.id)
	out.emit(env, protocol.WorktreeOpenedEvent{Workspace: ws, Worktree: tree, AlreadyOpen: !made}, w)
	return protocol.WorktreeOpened{Workspace: ws, Tab: t, RootPane: root, Worktree: tree, AlreadyOpen: !made}, out, nil
}

// CloseCheckout answers worktree.remove once git removed the checkout:
// worktree_removed, then its workspace closes.
func (tx *Tx) CloseCheckout(env Env, workspaceID string, tree protocol.WorktreeInfo, forced bool) (protocol.WorktreeRemoved, Out, error) {
	var out Out
	if err := tx.m.sourceGone(workspaceID, "its checkout "+tree.Path+" was removed"); err != nil {
		return protocol.WorktreeRemoved{}, out, err
	}
	ev := protocol.WorktreeRemovedEvent{WorkspaceID: workspaceID, Worktree: tree, Forced: forced}
	if w := tx.m.byWorkspace[workspaceID]; w != nil {
		info := env.WorkspaceInfo(w)
		ev.Workspace = &info
		out.emit(env, ev, w)
		tx.closeWorkspace(env, &out, w)
	} else { // a call that named no workspace: there is none to close
		out.emit(env, ev, nil)
	}
	return protocol.WorktreeRemoved{WorkspaceID: workspaceID, Path: tree.Path, Forced: forced}, out, nil
}
