package worktrees

import (
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// told is a message the stand-in session received, with its sender.
type told struct {
	msg    any
	sender *actor.PID
}

// start spawns the actor under test and a stand-in session that hands on
// what it is told.
func start(t *testing.T, reads *view.ReadSide) (*actor.ActorSystem, *actor.PID, chan told) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	session := make(chan told, 4)
	sessionPID := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *Listed, *OpenCheckout, *CloseCheckout:
			session <- told{m, ctx.Sender()}
		}
	}))
	pid := system.Root.Spawn(Props(Options{Home: t.TempDir(), Log: log, Reads: reads}))
	system.Root.Send(pid, &SetSession{PID: sessionPID})
	return system, pid, session
}

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func list(dir, source string) *Request {
	return &Request{Call: &kit.Call{ID: "1", Method: "worktree.list", Params: &protocol.WorktreeListParams{}}, Dir: dir, SourceID: source}
}

// published is a read side showing workspace w1 on folder dir, focused,
// and w2 open on checkout (no workspace when "").
func published(dir, checkout string) *view.ReadSide {
	v := &view.View{Spaces: []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1"}, Cwd: dir}}, FocusedWS: "w1", FocusedPane: -1}
	if checkout != "" {
		v.Spaces = append(v.Spaces, view.Space{Info: protocol.WorkspaceInfo{WorkspaceID: "w2", Worktree: &protocol.WorkspaceWorktreeInfo{CheckoutPath: checkout}}, Cwd: checkout})
	}
	v.Index()
	r := view.NewReadSide()
	r.Publish(v)
	return r
}

// A failed job answers its caller and frees its source workspace; a
// worktree.list that git answered is answered here, its checkouts open in
// a workspace marked from the read side, and the session is told nothing.
func TestJobAnswersOnceAndFreesItsSource(t *testing.T) {
	repo := gitRepo(t)
	system, pid, session := start(t, published(repo, filepath.Clean(canonicalPath(repo))))

	res, err := system.Root.RequestFuture(pid, list(t.TempDir(), "w1"), 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*kit.Reply); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeNotGitWorktree {
		t.Fatalf("reply %+v, want not_git_worktree", r)
	}
	res, err = system.Root.RequestFuture(pid, list(repo, "w1"), 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*kit.Reply)
	l, ok := r.Result.(protocol.WorktreeList)
	if r.Err != nil || !ok || len(l.Worktrees) != 1 || l.Source.RepoRoot != filepath.Clean(canonicalPath(repo)) ||
		l.Source.SourceWorkspaceID == nil || *l.Source.SourceWorkspaceID != "w1" {
		t.Fatalf("worktree.list answered %+v", r)
	}
	if o := l.Worktrees[0].OpenWorkspaceID; o == nil || *o != "w2" {
		t.Fatalf("the checkout w2 is open on is marked %v, want w2", o)
	}
	select {
	case got := <-session:
		t.Fatalf("the session was told %T; a list changes no topology", got.msg)
	default:
	}
}

// A worktree.* call from the gateway finds its source in the read side:
// the named or focused workspace's folder, or its cwd; a workspace the
// read side does not show is workspace_not_found, and a source removed
// while git ran refuses the list.
func TestCallsResolveTheirSourceFromTheReadSide(t *testing.T) {
	repo := gitRepo(t)
	reads := published(repo, "")
	system, pid, _ := start(t, reads)
	ask := func(p protocol.Params) *kit.Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "1", Method: "worktree.list", Params: p}, 10*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	id := func(s string) *string { return &s }
	for _, p := range []*protocol.WorktreeListParams{{}, {WorktreeSource: protocol.WorktreeSource{WorkspaceID: id("w1")}}, {WorktreeSource: protocol.WorktreeSource{WorkspaceID: id("1")}}} {
		r := ask(p)
		if l, ok := r.Result.(protocol.WorktreeList); r.Err != nil || !ok || l.Source.SourceWorkspaceID == nil || *l.Source.SourceWorkspaceID != "w1" {
			t.Fatalf("%+v answered %+v, want w1's repository", p, r)
		}
	}
	if r := ask(&protocol.WorktreeListParams{WorktreeSource: protocol.WorktreeSource{Cwd: id(repo)}}); r.Err != nil || r.Result.(protocol.WorktreeList).Source.SourceWorkspaceID != nil {
		t.Fatalf("a cwd's list answered %+v, want no source workspace", r)
	}
	if r := ask(&protocol.WorktreeListParams{WorktreeSource: protocol.WorktreeSource{WorkspaceID: id("w9")}}); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeWorkspaceNotFound {
		t.Fatalf("w9 answered %+v, want workspace_not_found", r)
	}
	empty := &view.View{FocusedPane: -1}
	empty.Index()
	reads.Publish(empty)
	if r := ask(&protocol.WorktreeListParams{}); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeNoActiveWorkspace {
		t.Fatalf("no workspace answered %+v, want no_active_workspace", r)
	}
	// w1 gone by the time git is done.
	if r := askRequest(t, system, pid, list(repo, "w1")); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeWorkspaceNotFound {
		t.Fatalf("a list whose source closed answered %+v, want workspace_not_found", r)
	}
}

func askRequest(t *testing.T, system *actor.ActorSystem, pid *actor.PID, req *Request) *kit.Reply {
	t.Helper()
	res, err := system.Root.RequestFuture(pid, req, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*kit.Reply)
}

// worktree.remove of a workspace that is no linked checkout is refused
// before any git runs, and leaves the workspace free.
func TestRemoveRefusesAMainCheckout(t *testing.T) {
	system, pid, _ := start(t, nil)
	req := &Request{Call: &kit.Call{ID: "1", Method: "worktree.remove", Params: &protocol.WorktreeRemoveParams{WorkspaceID: "w1"}}, SourceID: "w1",
		Worktree: &protocol.WorkspaceWorktreeInfo{RepoRoot: "/r", CheckoutPath: "/r"}}
	for range 2 { // the second is not refused as busy
		res, err := system.Root.RequestFuture(pid, req, 10*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		if r := res.(*kit.Reply); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeNotLinkedWorktree {
			t.Fatalf("reply %+v, want not_linked_worktree", r)
		}
	}
}
