package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// Worktrees: the worktrees actor resolves a worktree call's source from
// the read side and runs git. When a checkout's workspace must open or
// close it sends one message carrying the call (OpenCheckout,
// CloseCheckout); the session applies it as one topology change and
// answers the caller, or refuses when the source workspace closed
// meanwhile (workspace_not_found).

// sourceGone refuses a finished worktree call whose source workspace
// closed while git ran; done says what git did meanwhile.
func (s *Session) sourceGone(id, done string) error {
	if id == "" || s.m.Workspace(id) != nil {
		return nil
	}
	return protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s closed during the worktree operation; %s", id, done)
}

// openCheckout answers worktree.create and worktree.open: a workspace on
// the checkout (an open one is reused unless the checkout is new).
func (s *Session) openCheckout(ctx actor.Context, msg *worktrees.OpenCheckout) *kit.Reply {
	done := "the checkout " + msg.Tree.Path + " is there but was not opened"
	if msg.Created {
		done = "the checkout " + msg.Tree.Path + " was created but not opened"
	}
	if err := s.sourceGone(msg.SourceID, done); err != nil {
		return kit.Fail(err)
	}
	var opened *workspace // the first open on the checkout
	for _, w := range s.m.Workspaces() {
		if w.Worktree() != nil && w.Worktree().CheckoutPath == msg.Tree.Path {
			opened = w
			break
		}
	}
	already := !msg.Created
	if msg.Created || opened == nil {
		var err error
		if opened, err = s.newCheckoutWorkspace(ctx, msg); err != nil {
			return kit.Fail(err)
		}
		already = false
	} else if msg.Focus {
		s.tx.FocusWorkspace(opened)
	}
	tree := msg.Tree
	root := s.recs.Get(opened.Active().Focused())
	if msg.Created {
		s.emit(protocol.WorktreeCreatedEvent{Workspace: s.recs.WorkspaceInfo(opened), Worktree: tree}, s.recs.WorkspaceFields(opened))
		return kit.Done(protocol.WorktreeCreated{Workspace: s.recs.WorkspaceInfo(opened), Tab: s.recs.TabInfo(opened.Active()), RootPane: s.recs.PaneInfo(root.Pane), Worktree: tree})
	}
	tree.OpenWorkspaceID = protocol.Ptr(opened.ID())
	s.emit(protocol.WorktreeOpenedEvent{Workspace: s.recs.WorkspaceInfo(opened), Worktree: tree, AlreadyOpen: already}, s.recs.WorkspaceFields(opened))
	return kit.Done(protocol.WorktreeOpened{Workspace: s.recs.WorkspaceInfo(opened), Tab: s.recs.TabInfo(opened.Active()), RootPane: s.recs.PaneInfo(root.Pane), Worktree: tree, AlreadyOpen: already})
}

// newCheckoutWorkspace opens a workspace on a checkout, in its worktree
// group: right after the group's last workspace, its provenance set. A
// source workspace without provenance joins the group as its main checkout.
func (s *Session) newCheckoutWorkspace(ctx actor.Context, msg *worktrees.OpenCheckout) (*workspace, error) {
	r := msg.Repo
	if src := s.m.Workspace(msg.SourceID); src != nil && src.Worktree() == nil {
		s.tx.SetWorktree(src, &protocol.WorkspaceWorktreeInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, CheckoutPath: r.Checkout, IsLinkedWorktree: r.Checkout != r.Root})
		s.emitWorkspaceUpdated(src)
	}
	name := ""
	if msg.Label != nil {
		name = *msg.Label
	}
	w, err := s.newWorkspace(ctx, name, paneSetup{cwd: msg.Tree.Path})
	if err != nil {
		return nil, err
	}
	s.tx.SetWorktree(w, &protocol.WorkspaceWorktreeInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, CheckoutPath: msg.Tree.Path, IsLinkedWorktree: msg.Tree.IsLinkedWorktree})
	// Grouped: after the last workspace of the same repository.
	last := -1
	for i, x := range s.m.Workspaces() {
		if x != w && x.Worktree() != nil && x.Worktree().RepoKey == r.Key {
			last = i
		}
	}
	if from := slices.Index(s.m.Workspaces(), w); last >= 0 && last+1 < from {
		s.tx.MoveWorkspaces(model.MoveTo(slices.Clone(s.m.Workspaces()), from, last+1))
	}
	if msg.Focus {
		s.tx.FocusWorkspace(w)
	}
	s.emitCreated(w, w.Active(), s.recs.Get(w.Active().Focused()))
	return w, nil
}

// closeCheckout answers worktree.remove: the removed checkout's workspace closes.
func (s *Session) closeCheckout(ctx actor.Context, msg *worktrees.CloseCheckout) *kit.Reply {
	if err := s.sourceGone(msg.WorkspaceID, "its checkout "+msg.Tree.Path+" was removed"); err != nil {
		return kit.Fail(err)
	}
	ev := protocol.WorktreeRemovedEvent{WorkspaceID: msg.WorkspaceID, Worktree: msg.Tree, Forced: msg.Forced}
	open := s.m.Workspace(msg.WorkspaceID)
	info := s.recs.WorkspaceInfo(open)
	ev.Workspace = &info
	s.emit(ev, s.recs.WorkspaceFields(open))
	s.closeWorkspace(ctx, open)
	return kit.Done(protocol.WorktreeRemoved{WorkspaceID: msg.WorkspaceID, Path: msg.Tree.Path, Forced: msg.Forced})
}
