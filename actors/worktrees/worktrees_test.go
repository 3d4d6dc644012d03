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
	"github.com/herdr-go/herdr/protocol"
)

// told is a message the stand-in session received, with its sender.
type told struct {
	msg    any
	sender *actor.PID
}

// start spawns the actor under test and a stand-in session that hands on
// what it is told.
func start(t *testing.T) (*actor.ActorSystem, *actor.PID, chan told) {
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
	pid := system.Root.Spawn(Props(Options{Home: t.TempDir(), Log: log}))
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

// A failed job answers its caller here and frees its source workspace; a
// good one goes to the session with the caller as the sender, so the
// session's answer reaches the caller.
func TestJobAnswersOnceAndFreesItsSource(t *testing.T) {
	system, pid, session := start(t)
	repo := gitRepo(t)

	res, err := system.Root.RequestFuture(pid, list(t.TempDir(), "w1"), 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*kit.Reply); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeNotGitWorktree {
		t.Fatalf("reply %+v, want not_git_worktree", r)
	}

	caller := system.Root.RequestFuture(pid, list(repo, "w1"), 10*time.Second)
	select {
	case got := <-session:
		l, ok := got.msg.(*Listed)
		if !ok || l.SourceID != "w1" || len(l.Trees) != 1 || l.Repo.Root != filepath.Clean(canonicalPath(repo)) {
			t.Fatalf("session told %+v", got.msg)
		}
		if !got.sender.Equal(caller.PID()) {
			t.Fatalf("sender %v, want the caller %v", got.sender, caller.PID())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session was told nothing (the source still busy?)")
	}
}

// worktree.remove of a workspace that is no linked checkout is refused
// before any git runs, and leaves the workspace free.
func TestRemoveRefusesAMainCheckout(t *testing.T) {
	system, pid, _ := start(t)
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
