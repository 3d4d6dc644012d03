package session

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// Worktrees: the session resolves a worktree call's source and forwards it
// to the worktrees actor, which runs git and keeps the call meanwhile.
// When git is done it sends back one message carrying the call
// (OpenCheckout, CloseCheckout, Listed); the session applies it as one
// topology change and answers the caller, or refuses when the source
// workspace closed meanwhile (workspace_not_found).

var worktreeHandlers = map[string]handler{
	"worktree.list":   (*Session).worktreeFromSource,
	"worktree.create": (*Session).worktreeFromSource,
	"worktree.open":   (*Session).worktreeFromSource,
}

var worktreeRoutes = map[string]workspaceHandler{
	"worktree.remove": (*Session).forwardWorktree,
}

// worktreeFromSource forwards a call that starts from a workspace (the
// named or focused one) or a folder.
func (s *Session) worktreeFromSource(ctx actor.Context, call *kit.Call) *kit.Reply {
	var src protocol.WorktreeSource
	switch prm := call.Params.(type) {
	case *protocol.WorktreeListParams:
		src = prm.WorktreeSource
	case *protocol.WorktreeCreateParams:
		src = prm.WorktreeSource
	case *protocol.WorktreeOpenParams:
		src = prm.WorktreeSource
	}
	if src.Cwd != nil {
		return s.forward(ctx, call, *src.Cwd, nil)
	}
	w := s.m.Focused()
	if src.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*src.WorkspaceID); err != nil {
			return kit.Fail(err)
		}
	}
	if w == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; give workspace_id or cwd"))
	}
	return s.forwardWorktree(ctx, call, w)
}

// forwardWorktree forwards a call that starts from workspace w.
func (s *Session) forwardWorktree(ctx actor.Context, call *kit.Call, w *workspace) *kit.Reply {
	if w.Worktree() != nil {
		return s.forward(ctx, call, w.Worktree().CheckoutPath, w)
	}
	return s.forward(ctx, call, w.Cwd(), w)
}

func (s *Session) forward(ctx actor.Context, call *kit.Call, dir string, w *workspace) *kit.Reply {
	if s.opts.Worktrees == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNotImplemented, "worktrees are not running in this server"))
	}
	req := &worktrees.Request{Call: call, Dir: dir, CheckoutDir: s.cfg.Worktrees.Directory}
	if w != nil {
		req.SourceID = w.ID()
		if wt := w.Worktree(); wt != nil {
			req.Worktree = protocol.Ptr(*wt) // a copy: the record is the session's
		}
	}
	ctx.RequestWithCustomSender(s.opts.Worktrees, req, ctx.Sender())
	return nil
}

// sourceGone refuses a finished worktree call whose source workspace
// closed while git ran; done says what git did meanwhile.
func (s *Session) sourceGone(id, done string) error {
	if id == "" || s.m.Workspace(id) != nil {
		return nil
	}
	return protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s closed during the worktree operation; %s", id, done)
}

func (s *Session) worktreeListed(msg *worktrees.Listed) *kit.Reply {
	if err := s.sourceGone(msg.SourceID, "nothing was changed"); err != nil {
		return kit.Fail(err)
	}
	for i := range msg.Trees {
		if w := s.openWorkspaceOf(msg.Trees[i].Path); w != nil {
			msg.Trees[i].OpenWorkspaceID = protocol.Ptr(w.ID())
		}
	}
	r := msg.Repo
	src := protocol.WorktreeSourceInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, SourceCheckoutPath: r.Checkout}
	if msg.SourceID != "" {
		src.SourceWorkspaceID = protocol.Ptr(msg.SourceID)
	}
	return kit.Done(protocol.WorktreeList{Source: src, Worktrees: msg.Trees})
}

// openWorkspaceOf is the workspace open on a checkout, or nil.
func (s *Session) openWorkspaceOf(path string) *workspace {
	for _, w := range s.m.Workspaces() {
		if w.Worktree() != nil && w.Worktree().CheckoutPath == path {
			return w
		}
	}
	return nil
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
	opened, already := s.openWorkspaceOf(msg.Tree.Path), !msg.Created
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
	root := s.terms[opened.Active().Focused()]
	if msg.Created {
		s.emit(protocol.WorktreeCreatedEvent{Workspace: s.workspaceInfo(opened), Worktree: tree}, s.workspaceFields(opened))
		return kit.Done(protocol.WorktreeCreated{Workspace: s.workspaceInfo(opened), Tab: s.tabInfo(opened.Active()), RootPane: s.paneInfo(root), Worktree: tree})
	}
	tree.OpenWorkspaceID = protocol.Ptr(opened.ID())
	s.emit(protocol.WorktreeOpenedEvent{Workspace: s.workspaceInfo(opened), Worktree: tree, AlreadyOpen: already}, s.workspaceFields(opened))
	return kit.Done(protocol.WorktreeOpened{Workspace: s.workspaceInfo(opened), Tab: s.tabInfo(opened.Active()), RootPane: s.paneInfo(root), Worktree: tree, AlreadyOpen: already})
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
	s.emitCreated(w, w.Active(), s.terms[w.Active().Focused()])
	return w, nil
}

// closeCheckout answers worktree.remove: the removed checkout's workspace closes.
func (s *Session) closeCheckout(ctx actor.Context, msg *worktrees.CloseCheckout) *kit.Reply {
	if err := s.sourceGone(msg.WorkspaceID, "its checkout "+msg.Tree.Path+" was removed"); err != nil {
		return kit.Fail(err)
	}
	ev := protocol.WorktreeRemovedEvent{WorkspaceID: msg.WorkspaceID, Worktree: msg.Tree, Forced: msg.Forced}
	open := s.m.Workspace(msg.WorkspaceID)
	info := s.workspaceInfo(open)
	ev.Workspace = &info
	s.emit(ev, s.workspaceFields(open))
	s.closeWorkspace(ctx, open)
	return kit.Done(protocol.WorktreeRemoved{WorkspaceID: msg.WorkspaceID, Path: msg.Tree.Path, Forced: msg.Forced})
}
