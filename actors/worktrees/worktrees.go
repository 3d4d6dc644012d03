package worktrees

import (
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Methods are the methods whose git work this actor does.
var Methods = map[string]func(req *Request, home string) (func() any, error){
	"worktree.list":   listJob,
	"worktree.create": createJob,
	"worktree.open":   openJob,
	"worktree.remove": removeJob,
}

// Options configure the worktrees actor.
type Options struct {
	Home string // the home folder, "~" of the [worktrees] directory
	Log  *slog.Logger
	// Reads is the session's read side the calls' sources are resolved
	// from (calls.go); nil answers them internal_error.
	Reads *view.ReadSide
	// Directory is the [worktrees] directory at start; a *config.Reloaded
	// (the session's, sent before it answers server.reload_config)
	// replaces it.
	Directory string
}

// SetSession tells the actor where topology changes are asked for.
type SetSession struct{ PID *actor.PID }

// Request is a worktree.* call whose source is resolved (calls.go); the
// caller is the sender.
type Request struct {
	Call *kit.Call
	// Dir is the folder the call starts from: the source workspace's
	// checkout or folder, or the call's cwd.
	Dir string
	// SourceID is the source workspace ("" for a cwd); for worktree.remove
	// the workspace to remove, Worktree its provenance (nil for none).
	SourceID string
	Worktree *protocol.WorkspaceWorktreeInfo
	// CheckoutDir is the [worktrees] directory as configured.
	CheckoutDir string
}

// OpenCheckout asks the session to open a workspace on a checkout
// (worktree.create, worktree.open), in its worktree group; the caller is
// the sender. Created says the checkout is new: the workspace is always
// made and announced as worktree_created; otherwise one already open on it
// is reused.
type OpenCheckout struct {
	Call     *kit.Call
	SourceID string
	Repo     wsactor.Repo
	Tree     protocol.WorktreeInfo
	Label    *string
	Focus    bool
	Created  bool
}

// CloseCheckout tells the session a linked checkout was removed: its
// workspace closes; the caller is the sender.
type CloseCheckout struct {
	Call        *kit.Call
	WorkspaceID string
	Tree        protocol.WorktreeInfo
	Forced      bool
}

// Listed is worktree.list's git work done: the actor marks which of the
// repository's checkouts are open and answers it (calls.go).
type Listed struct {
	Call     *kit.Call
	SourceID string
	Repo     wsactor.Repo
	Trees    []protocol.WorktreeInfo
}

// Worktrees is the worktrees actor.
type Worktrees struct {
	opts    Options
	session *actor.PID
	busy    map[string]bool // source workspaces with a job running
	dir     string          // the [worktrees] directory
}

// jobDone brings a job's result back to the actor: a message for the
// session, or an error for the caller.
type jobDone struct {
	call     *kit.Call
	caller   *actor.PID
	sourceID string
	result   any
}

// Props returns the props of the worktrees actor.
func Props(opts Options) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &Worktrees{opts: opts, busy: map[string]bool{}, dir: opts.Directory} }, kit.Guarded(opts.Log))
}

// CarriedCall implements kit.CallCarrier, for each message that carries
// the call it is for: a panic handling one answers that call.
func (r *Request) CarriedCall() *kit.Call { return r.Call }

// CarriedCall implements kit.CallCarrier.
func (m *OpenCheckout) CarriedCall() *kit.Call { return m.Call }

// CarriedCall implements kit.CallCarrier.
func (m *CloseCheckout) CarriedCall() *kit.Call { return m.Call }

// CarriedCall implements kit.CallCarrier.
func (m *Listed) CarriedCall() *kit.Call { return m.Call }

// TopologyAsk implements kit.TopologyAsk.
func (*OpenCheckout) TopologyAsk() {}

// TopologyAsk implements kit.TopologyAsk.
func (*CloseCheckout) TopologyAsk() {}

// Receive implements actor.Actor.
func (w *Worktrees) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *SetSession:
		w.session = msg.PID
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", msg.Method)))
			return
		}
		if reply := h(w, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *caughtUp: // calls.go
		if reply := msg.f(w, ctx, w.opts.Reads.Newest()); reply != nil {
			ctx.Respond(reply)
		}
	case *config.Reloaded:
		w.dir = msg.Config.Worktrees.Directory
	case *Request:
		if reply := w.start(ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *jobDone:
		w.finish(ctx, msg)
	default:
		kit.Unhandled(ctx, msg, w.opts.Log)
	}
}

// start runs the call's job on a goroutine; its result comes back as a
// jobDone. A source workspace runs one job at a time.
func (w *Worktrees) start(ctx actor.Context, req *Request) *kit.Reply {
	job, err := Methods[req.Call.Method](req, w.opts.Home)
	if err != nil {
		return kit.Fail(err)
	}
	if id := req.SourceID; id != "" {
		if w.busy[id] {
			return kit.Fail(protocol.Errorf(protocol.CodeWorktreeBusy, "another worktree operation is running for workspace %s", id))
		}
		w.busy[id] = true
	}
	done := &jobDone{call: req.Call, caller: ctx.Sender(), sourceID: req.SourceID}
	root, self, log := ctx.ActorSystem().Root, ctx.Self(), w.opts.Log
	go func() {
		defer func() { root.Send(self, done) }()
		defer func() {
			if r := recover(); r != nil { // answered as an error, not a crashed server
				if log != nil {
					log.Error("worktree job panicked", "method", done.call.Method, "panic", r)
				}
				done.result = protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", done.call.Method, r)
			}
		}()
		done.result = job()
	}()
	return nil
}

// finish frees the source and hands the result on: an error to the
// caller, a topology change to the session, which answers the caller.
func (w *Worktrees) finish(ctx actor.Context, d *jobDone) {
	delete(w.busy, d.sourceID)
	if err, ok := d.result.(error); ok {
		ctx.Send(d.caller, kit.Fail(err))
		return
	}
	if l, ok := d.result.(*Listed); ok {
		w.listed(ctx, l, d.caller)
		return
	}
	if w.session == nil {
		ctx.Send(d.caller, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: no session to open the checkout in", d.call.Method)))
		return
	}
	ctx.RequestWithCustomSender(w.session, d.result, d.caller)
}

// checkoutRoot is where a new worktree's checkout goes by default: the
// [worktrees] directory, "~" being the home folder; a relative one is
// taken from home.
func checkoutRoot(dir, home string) string {
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) {
		dir = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(home, dir)
	}
	return dir
}

func listJob(req *Request, _ string) (func() any, error) {
	trust := trustOf(req)
	return func() any {
		repo, err := wsactor.RepoOf(trust, req.Dir)
		if err != nil {
			return err
		}
		trees, err := wsactor.ListWorktrees(trust, repo)
		if err != nil {
			return err
		}
		return &Listed{Call: req.Call, SourceID: req.SourceID, Repo: repo, Trees: trees}
	}, nil
}

func createJob(req *Request, home string) (func() any, error) {
	prm := req.Call.Params.(*protocol.WorktreeCreateParams)
	branch := wsactor.NewBranchName()
	if prm.Branch != nil {
		branch = *prm.Branch
	}
	base, path, root := "", "", checkoutRoot(req.CheckoutDir, home)
	if prm.Base != nil {
		base = *prm.Base
	}
	if prm.Path != nil {
		path = *prm.Path
	}
	trust := trustOf(req)
	return func() any {
		repo, err := wsactor.RepoOf(trust, req.Dir)
		if err != nil {
			return err
		}
		target := path
		if target == "" {
			target = filepath.Join(root, repo.Name, wsactor.Slug(branch))
		}
		if err := wsactor.CreateWorktree(trust, repo, target, branch, base); err != nil {
			return err
		}
		tree, err := findTree(trust, repo, func(t protocol.WorktreeInfo) bool { return t.Path == canonicalPath(target) })
		if err != nil {
			return err
		}
		return &OpenCheckout{Call: req.Call, SourceID: req.SourceID, Repo: repo, Tree: tree, Label: prm.Label, Focus: prm.Focus, Created: true}
	}, nil
}

func openJob(req *Request, _ string) (func() any, error) {
	prm := req.Call.Params.(*protocol.WorktreeOpenParams)
	trust := trustOf(req)
	return func() any {
		repo, err := wsactor.RepoOf(trust, req.Dir)
		if err != nil {
			return err
		}
		var tree protocol.WorktreeInfo
		if prm.Path != nil {
			tree, err = findTree(trust, repo, func(t protocol.WorktreeInfo) bool { return t.Path == canonicalPath(*prm.Path) })
		} else {
			tree, err = treeOfBranch(trust, repo, *prm.Branch)
		}
		if err != nil {
			return err
		}
		return &OpenCheckout{Call: req.Call, SourceID: req.SourceID, Repo: repo, Tree: tree, Label: prm.Label, Focus: prm.Focus}
	}, nil
}

// treeOfBranch is the one checkout of repo that has branch checked out.
func treeOfBranch(trust *wsactor.Trust, repo wsactor.Repo, branch string) (protocol.WorktreeInfo, error) {
	trees, err := wsactor.ListWorktrees(trust, repo)
	if err != nil {
		return protocol.WorktreeInfo{}, err
	}
	var found []protocol.WorktreeInfo
	for _, t := range trees {
		if t.Branch != nil && *t.Branch == branch {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return protocol.WorktreeInfo{}, protocol.Errorf(protocol.CodeWorktreeNotFound, "no worktree of %s has branch %s checked out", repo.Root, branch)
	case 1:
		return found[0], nil
	}
	return protocol.WorktreeInfo{}, protocol.Errorf(protocol.CodeAmbiguousWorktreeBranch, "branch %s is checked out in %d worktrees; give the path", branch, len(found))
}

func removeJob(req *Request, _ string) (func() any, error) {
	prm := req.Call.Params.(*protocol.WorktreeRemoveParams)
	wt := req.Worktree
	if wt == nil || !wt.IsLinkedWorktree {
		return nil, protocol.Errorf(protocol.CodeNotLinkedWorktree, "workspace %s is not a linked worktree", req.SourceID)
	}
	repo := wsactor.Repo{Key: wt.RepoKey, Name: wt.RepoName, Root: wt.RepoRoot, Checkout: wt.CheckoutPath}
	trust := trustOf(req)
	return func() any {
		tree, err := findTree(trust, repo, func(t protocol.WorktreeInfo) bool { return t.Path == wt.CheckoutPath })
		if err != nil {
			return err
		}
		if err := wsactor.RemoveWorktree(trust, repo, wt.CheckoutPath, prm.Force); err != nil {
			return err
		}
		return &CloseCheckout{Call: req.Call, WorkspaceID: req.SourceID, Tree: tree, Forced: prm.Force}
	}, nil
}

// trustOf is the git trust the request asks for (trust_repository).
func trustOf(req *Request) *wsactor.Trust {
	t, ok := req.Call.Params.(interface{ Trusted() bool })
	return &wsactor.Trust{Allowed: ok && t.Trusted()}
}

// findTree lists the repository's checkouts and picks the one match accepts.
func findTree(trust *wsactor.Trust, repo wsactor.Repo, match func(protocol.WorktreeInfo) bool) (protocol.WorktreeInfo, error) {
	trees, err := wsactor.ListWorktrees(trust, repo)
	if err != nil {
		return protocol.WorktreeInfo{}, err
	}
	for _, t := range trees {
		if match(t) {
			return t, nil
		}
	}
	return protocol.WorktreeInfo{}, protocol.Errorf(protocol.CodeWorktreeNotFound, "no such worktree of %s", repo.Root)
}

func canonicalPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
