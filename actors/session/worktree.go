package session

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/session/model"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Worktrees: the git work of worktree.* runs on the source workspace's
// actor (a goroutine of its own, one job at a time), or on a goroutine of
// the session's for a folder no workspace holds — never in Receive. The
// session resolves the source, hands over the job, and finishes the call
// when the GitDone comes back: it alone changes the topology (a new
// workspace for a checkout, a closed one for a removed checkout).

var worktreeHandlers = map[string]handler{
	"worktree.list":   (*Session).worktreeList,
	"worktree.create": (*Session).worktreeCreate,
	"worktree.open":   (*Session).worktreeOpen,
}

var worktreeRoutes = map[string]workspaceHandler{
	"worktree.remove": (*Session).worktreeRemove,
}

// gitOp is a worktree call waiting for its git job.
type gitOp struct {
	caller *actor.PID
	call   *api.Call
	wsID   string // the workspace whose actor runs the job ("" for a goroutine of the session's)
	finish func(s *Session, ctx actor.Context, op *gitOp, result any) *api.Reply
}

// gitResult is what the jobs of list, create and open return.
type gitResult struct {
	repo  wsactor.Repo
	trees []protocol.WorktreeInfo
	tree  *protocol.WorktreeInfo // the one created or opened
}

// worktreeSource is the folder a worktree call starts from, and its workspace.
func (s *Session) worktreeSource(src protocol.WorktreeSource) (string, *workspace, error) {
	if src.Cwd != nil {
		return *src.Cwd, nil, nil
	}
	w := s.m.Focused
	if src.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*src.WorkspaceID); err != nil {
			return "", nil, err
		}
	}
	if w == nil {
		return "", nil, protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; give workspace_id or cwd")
	}
	if w.Worktree != nil {
		return w.Worktree.CheckoutPath, w, nil
	}
	return w.Cwd, w, nil
}

// runGit hands job to w's actor (or a goroutine when w is nil) and parks
// the call until it is done.
func (s *Session) runGit(ctx actor.Context, call *api.Call, w *workspace, job func() any, finish func(*Session, actor.Context, *gitOp, any) *api.Reply) *api.Reply {
	s.nextGit++
	op := &gitOp{caller: ctx.Sender(), call: call, finish: finish}
	if w != nil {
		pid := s.actorOf(w.ID)
		if pid == nil {
			return api.Fail(protocol.Errorf(protocol.CodeInternal, "workspace %s has no actor (see the server log)", w.ID))
		}
		op.wsID = w.ID
		ctx.Send(pid, &wsactor.GitJob{Token: s.nextGit, Run: job})
	} else {
		token, root, self := s.nextGit, ctx.ActorSystem().Root, ctx.Self()
		go func() { root.Send(self, &wsactor.GitDone{Token: token, Result: job()}) }()
	}
	if s.gitOps == nil {
		s.gitOps = map[uint64]*gitOp{}
	}
	s.gitOps[s.nextGit] = op
	return nil
}

// gitDone finishes the call a git job was for.
func (s *Session) gitDone(ctx actor.Context, m *wsactor.GitDone) {
	op := s.gitOps[m.Token]
	if op == nil {
		return
	}
	delete(s.gitOps, m.Token)
	var reply *api.Reply
	if err, ok := m.Result.(error); ok {
		reply = api.Fail(err)
	} else {
		reply = op.finish(s, ctx, op, m.Result)
	}
	s.conclude(ctx, reply)
	ctx.Send(op.caller, reply)
}

// dropGitOps answers the calls whose git job ran on a workspace that closed.
func (s *Session) dropGitOps(ctx actor.Context, wsID string) {
	for token, op := range s.gitOps {
		if op.wsID == wsID {
			delete(s.gitOps, token)
			ctx.Send(op.caller, api.Fail(protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s closed during the worktree operation", wsID)))
		}
	}
}

// listJob finds dir's repository and its checkouts.
func listJob(dir string) func() any {
	return func() any {
		repo, err := wsactor.RepoOf(dir)
		if err != nil {
			return err
		}
		trees, err := wsactor.ListWorktrees(repo)
		if err != nil {
			return err
		}
		return &gitResult{repo: repo, trees: trees}
	}
}

// openWorkspaceOf is the workspace open on a checkout, or nil.
func (s *Session) openWorkspaceOf(path string) *workspace {
	for _, w := range s.m.Workspaces {
		if w.Worktree != nil && w.Worktree.CheckoutPath == path {
			return w
		}
	}
	return nil
}

// markOpen fills in which workspace each checkout is open in.
func (s *Session) markOpen(trees []protocol.WorktreeInfo) {
	for i := range trees {
		if w := s.openWorkspaceOf(trees[i].Path); w != nil {
			trees[i].OpenWorkspaceID = protocol.Ptr(w.ID)
		}
	}
}

func (s *Session) worktreeList(ctx actor.Context, call *api.Call) *api.Reply {
	dir, w, err := s.worktreeSource(call.Params.(*protocol.WorktreeListParams).WorktreeSource)
	if err != nil {
		return api.Fail(err)
	}
	return s.runGit(ctx, call, w, listJob(dir), func(s *Session, _ actor.Context, op *gitOp, res any) *api.Reply {
		r := res.(*gitResult)
		s.markOpen(r.trees)
		src := protocol.WorktreeSourceInfo{RepoKey: r.repo.Key, RepoName: r.repo.Name, RepoRoot: r.repo.Root, SourceCheckoutPath: r.repo.Checkout}
		if op.wsID != "" {
			src.SourceWorkspaceID = protocol.Ptr(op.wsID)
		}
		return api.Done(protocol.WorktreeList{Source: src, Worktrees: r.trees})
	})
}

// checkoutDir is where a new worktree's checkout goes by default:
// [worktrees] directory, "~" being the home folder; a relative one is
// taken from home.
func (s *Session) checkoutDir() string {
	dir := s.cfg.Worktrees.Directory
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) {
		dir = filepath.Join(s.home, rest)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(s.home, dir)
	}
	return dir
}

func (s *Session) worktreeCreate(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.WorktreeCreateParams)
	dir, w, err := s.worktreeSource(prm.WorktreeSource)
	if err != nil {
		return api.Fail(err)
	}
	branch := wsactor.NewBranchName()
	if prm.Branch != nil {
		branch = *prm.Branch
	}
	base, path, root := "", "", s.checkoutDir()
	if prm.Base != nil {
		base = *prm.Base
	}
	if prm.Path != nil {
		path = *prm.Path
	}
	job := func() any {
		repo, err := wsactor.RepoOf(dir)
		if err != nil {
			return err
		}
		target := path
		if target == "" {
			target = filepath.Join(root, repo.Name, wsactor.Slug(branch))
		}
		if err := wsactor.CreateWorktree(repo, target, branch, base); err != nil {
			return err
		}
		return findTree(repo, func(t protocol.WorktreeInfo) bool { return t.Path == canonicalPath(target) })
	}
	return s.runGit(ctx, call, w, job, func(s *Session, ctx actor.Context, op *gitOp, res any) *api.Reply {
		r := res.(*gitResult)
		created, err := s.openCheckout(ctx, op.wsID, r, prm.Label, prm.Focus)
		if err != nil {
			return api.Fail(err)
		}
		s.emit(protocol.WorktreeCreatedEvent{Workspace: s.workspaceInfo(created), Worktree: *r.tree}, s.workspaceFields(created))
		root := s.terms[created.Active.Focused]
		return api.Done(protocol.WorktreeCreated{Workspace: s.workspaceInfo(created), Tab: s.tabInfo(created.Active), RootPane: s.paneInfo(root), Worktree: *r.tree})
	})
}

// findTree lists the repository's checkouts and picks the one match
// accepts, as the job's result.
func findTree(repo wsactor.Repo, match func(protocol.WorktreeInfo) bool) any {
	trees, err := wsactor.ListWorktrees(repo)
	if err != nil {
		return err
	}
	for i := range trees {
		if match(trees[i]) {
			return &gitResult{repo: repo, trees: trees, tree: &trees[i]}
		}
	}
	return protocol.Errorf(protocol.CodeWorktreeNotFound, "no such worktree of %s", repo.Root)
}

func canonicalPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

func (s *Session) worktreeOpen(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.WorktreeOpenParams)
	dir, w, err := s.worktreeSource(prm.WorktreeSource)
	if err != nil {
		return api.Fail(err)
	}
	job := func() any {
		repo, err := wsactor.RepoOf(dir)
		if err != nil {
			return err
		}
		if prm.Path != nil {
			return findTree(repo, func(t protocol.WorktreeInfo) bool { return t.Path == canonicalPath(*prm.Path) })
		}
		trees, err := wsactor.ListWorktrees(repo)
		if err != nil {
			return err
		}
		var found []int
		for i, t := range trees {
			if t.Branch != nil && *t.Branch == *prm.Branch {
				found = append(found, i)
			}
		}
		switch len(found) {
		case 0:
			return protocol.Errorf(protocol.CodeWorktreeNotFound, "no worktree of %s has branch %s checked out", repo.Root, *prm.Branch)
		case 1:
			return &gitResult{repo: repo, trees: trees, tree: &trees[found[0]]}
		}
		return protocol.Errorf(protocol.CodeAmbiguousWorktreeBranch, "branch %s is checked out in %d worktrees; give the path", *prm.Branch, len(found))
	}
	return s.runGit(ctx, call, w, job, func(s *Session, ctx actor.Context, op *gitOp, res any) *api.Reply {
		r := res.(*gitResult)
		opened, already := s.openWorkspaceOf(r.tree.Path), true
		if opened == nil {
			var err error
			if opened, err = s.openCheckout(ctx, op.wsID, r, prm.Label, prm.Focus); err != nil {
				return api.Fail(err)
			}
			already = false
		} else if prm.Focus {
			s.tx.FocusWorkspace(opened)
		}
		r.tree.OpenWorkspaceID = protocol.Ptr(opened.ID)
		s.emit(protocol.WorktreeOpenedEvent{Workspace: s.workspaceInfo(opened), Worktree: *r.tree, AlreadyOpen: already}, s.workspaceFields(opened))
		root := s.terms[opened.Active.Focused]
		return api.Done(protocol.WorktreeOpened{Workspace: s.workspaceInfo(opened), Tab: s.tabInfo(opened.Active), RootPane: s.paneInfo(root), Worktree: *r.tree, AlreadyOpen: already})
	})
}

// openCheckout opens a workspace on a checkout, in its worktree group:
// right after the group's last workspace, its provenance set. A source
// workspace without provenance joins the group as its main checkout.
func (s *Session) openCheckout(ctx actor.Context, sourceID string, r *gitResult, label *string, focus bool) (*workspace, error) {
	if src := s.m.Workspace(sourceID); src != nil && src.Worktree == nil {
		checkout := r.repo.Checkout
		s.tx.SetWorktree(src, &protocol.WorkspaceWorktreeInfo{RepoKey: r.repo.Key, RepoName: r.repo.Name, RepoRoot: r.repo.Root, CheckoutPath: checkout, IsLinkedWorktree: checkout != r.repo.Root})
		s.emitWorkspaceUpdated(src)
	}
	name := ""
	if label != nil {
		name = *label
	}
	w, err := s.newWorkspace(ctx, name, paneSetup{cwd: r.tree.Path})
	if err != nil {
		return nil, err
	}
	s.tx.SetWorktree(w, &protocol.WorkspaceWorktreeInfo{RepoKey: r.repo.Key, RepoName: r.repo.Name, RepoRoot: r.repo.Root, CheckoutPath: r.tree.Path, IsLinkedWorktree: r.tree.IsLinkedWorktree})
	// Grouped: after the last workspace of the same repository.
	last := -1
	for i, x := range s.m.Workspaces {
		if x != w && x.Worktree != nil && x.Worktree.RepoKey == r.repo.Key {
			last = i
		}
	}
	if from := slices.Index(s.m.Workspaces, w); last >= 0 && last+1 < from {
		s.tx.MoveWorkspaces(model.MoveTo(slices.Clone(s.m.Workspaces), from, last+1))
	}
	if focus {
		s.tx.FocusWorkspace(w)
	}
	s.emitCreated(w, w.Active, s.terms[w.Active.Focused])
	return w, nil
}

func (s *Session) worktreeRemove(ctx actor.Context, call *api.Call, w *workspace) *api.Reply {
	prm := call.Params.(*protocol.WorktreeRemoveParams)
	wt := w.Worktree
	if wt == nil || !wt.IsLinkedWorktree {
		return api.Fail(protocol.Errorf(protocol.CodeNotLinkedWorktree, "workspace %s is not a linked worktree", w.ID))
	}
	repo := wsactor.Repo{Key: wt.RepoKey, Name: wt.RepoName, Root: wt.RepoRoot, Checkout: wt.CheckoutPath}
	job := func() any {
		res := findTree(repo, func(t protocol.WorktreeInfo) bool { return t.Path == wt.CheckoutPath })
		if err, ok := res.(error); ok {
			return err
		}
		if err := wsactor.RemoveWorktree(repo, wt.CheckoutPath, prm.Force); err != nil {
			return err
		}
		return res
	}
	return s.runGit(ctx, call, w, job, func(s *Session, ctx actor.Context, op *gitOp, res any) *api.Reply {
		r := res.(*gitResult)
		ev := protocol.WorktreeRemovedEvent{WorkspaceID: op.wsID, Worktree: *r.tree, Forced: prm.Force}
		if open := s.m.Workspace(op.wsID); open != nil {
			info := s.workspaceInfo(open)
			ev.Workspace = &info
			s.emit(ev, s.workspaceFields(open))
			s.closeWorkspace(ctx, open)
		} else {
			s.emit(ev, events.Fields{WorkspaceID: op.wsID})
		}
		return api.Done(protocol.WorktreeRemoved{WorkspaceID: op.wsID, Path: r.tree.Path, Forced: prm.Force})
	})
}
