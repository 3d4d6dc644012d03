package session

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// published collects what the session sends the bus.
type published struct {
	mu  sync.Mutex
	got []string
}

func (p *published) props() *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *events.Publish:
			p.mu.Lock()
			p.got = append(p.got, fmt.Sprintf("%T", m.Data))
			p.mu.Unlock()
		case *probe:
			ctx.Respond(m)
		}
	})
}

func (p *published) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.got
	p.got = nil
	return out
}

// TestTransactions_APanicLeavesNothing breaks every kind of topology change
// at each of its writes in turn: the call answers internal_error, and the
// session is exactly as before — the same snapshot, no event published,
// no save asked of the keeper, no pane left running — until the write
// number passes the change's last write and the change goes through whole.
func TestTransactions_APanicLeavesNothing(t *testing.T) {
	kinds := []struct {
		method, params string
		msg            func(*kit.Call) any // sent instead of the call, as another actor would (nil: the call)
	}{
		{"workspace.create", `{"cwd":"/tmp"}`, nil},
		{"tab.create", `{"cwd":"/tmp","focus":true}`, nil},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right","focus":true}`, nil},
		{"pane.close", `{"pane_id":"w2:p1"}`, nil},
		{"pane.close", `{"pane_id":"w1:p2"}`, nil},
		{"tab.close", `{"tab_id":"w1:t2"}`, nil},
		{"workspace.close", `{"workspace_id":"w2"}`, nil},
		{"pane.move", `{"pane_id":"w1:p2","destination":{"type":"tab","tab_id":"w2:t1","split":"down"},"focus":true}`, nil},
		{"pane.move", `{"pane_id":"w1:p2","destination":{"type":"new_tab"},"focus":true}`, nil},
		{"pane.move", `{"pane_id":"w2:p1","destination":{"type":"new_workspace"},"focus":true}`, nil},
		{"pane.focus", `{"pane_id":"w2:p1"}`, nil},
		{"tab.focus", `{"tab_id":"w1:t2"}`, nil},
		{"workspace.focus", `{"workspace_id":"w2"}`, nil},
		{"pane.zoom", `{"pane_id":"w1:p2"}`, nil},
		{"pane.resize", `{"pane_id":"w1:p1","direction":"right","amount":0.2}`, nil},
		{"pane.swap", `{"source_pane_id":"w1:p1","target_pane_id":"w1:p2"}`, nil},
		{"pane.rename", `{"pane_id":"w1:p1","label":"renamed"}`, nil},
		{"layout.set_split_ratio", `{"tab_id":"w1:t1","path":[],"ratio":0.3}`, nil},
		{"layout.apply", `{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":"/tmp"}}}`, nil},
		{"workspace.move", `{"workspace_id":"w2","insert_index":0}`, nil},
		{"tab.move", `{"tab_id":"w1:t2","insert_index":0}`, nil},
		// Worktree group changes: the worktrees actor has run git and asks
		// for the workspace of a new checkout, or to close a removed one's.
		{"worktree.create", `{"cwd":"/tmp","branch":"feat"}`, func(c *kit.Call) any {
			repo := wsactor.Repo{Key: "/tmp/repo/.git", Name: "repo", Root: "/tmp", Checkout: "/tmp"}
			return &worktrees.OpenCheckout{Call: c, SourceID: "w2", Repo: repo, Tree: protocol.WorktreeInfo{Path: "/tmp", IsLinkedWorktree: true}, Focus: true, Created: true}
		}},
		{"worktree.remove", `{"workspace_id":"w2"}`, func(c *kit.Call) any {
			return &worktrees.CloseCheckout{Call: c, WorkspaceID: "w2", Tree: protocol.WorktreeInfo{Path: "/tmp", IsLinkedWorktree: true}}
		}},
		// An owner's overlay (the scrollback editor over the focused pane):
		// the pane it covers is kept in the model, journalled with the rest.
		{"pane.edit_scrollback", `{"pane_id":"w1:p1"}`, func(c *kit.Call) any {
			return &kit.OpenPane{Call: c, Where: kit.OpenOverlay, Cwd: "/tmp", Argv: []string{"sh"}}
		}},
	}
	for _, k := range kinds {
		t.Run(k.method, func(t *testing.T) {
			t.Parallel() // each has a session of its own, and mostly waits for saves that must not come
			h, s, bus, saves := newBreakable(t)
			for n := 1; ; n++ {
				if n > 200 {
					t.Fatalf("%s still panicking at write %d", k.method, n)
				}
				h.flush()
				before := h.state()
				bus.take()
				saves.Store(0)
				s.m.InjectPanic(n) // the mailbox hands this to the actor's goroutine with the call
				var r *kit.Reply
				if k.msg == nil {
					r = h.call(k.method, k.params)
				} else {
					r = h.send(k.method, k.params, k.msg)
				}
				h.flush()
				if r.Err == nil {
					if n == 1 {
						t.Fatalf("%s wrote nothing", k.method)
					}
					if after := h.state(); after == before {
						t.Fatalf("%s went through but changed nothing", k.method)
					}
					if saves.Load() == 0 {
						t.Fatalf("%s went through but asked for no save: the keeper here does not count", k.method)
					}
					return // every write of the change has been broken once
				}
				if code := protocol.AsError(r.Err).Code; code != protocol.CodeInternal {
					t.Fatalf("%s broken at write %d: %v, want internal_error", k.method, n, r.Err)
				}
				if after := h.state(); after != before {
					t.Fatalf("%s broken at write %d changed the session:\n%s\nwant\n%s", k.method, n, after, before)
				}
				if got := bus.take(); len(got) > 0 {
					t.Fatalf("%s broken at write %d published %v", k.method, n, got)
				}
				if n := saves.Load(); n > 0 {
					t.Fatalf("%s broken at write %d told the keeper to save", k.method, n)
				}
			}
		})
	}
}

// newBreakable starts a session whose model the test can break, with two
// workspaces (w1: a tab of two panes and a second tab; w2: one pane), a
// bus that records what it is sent, and a keeper that counts the saves
// it is asked for (it asks for each at once, so every change is told).
func newBreakable(t *testing.T) (*harness, *Session, *published, *atomic.Int64) {
	h, s, bus, saves := spawnBreakable(t, nil, 0)
	for _, c := range [][2]string{
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`},
		{"tab.create", `{"workspace_id":"w1","cwd":"/tmp"}`},
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"workspace.focus", `{"workspace_id":"w1"}`},
		{"tab.focus", `{"tab_id":"w1:t1"}`},
	} {
		if r := h.call(c[0], c[1]); r.Err != nil {
			t.Fatalf("%s: %v", c[0], r.Err)
		}
	}
	h.flush()
	return h, s, bus, saves
}

// spawnBreakable starts the session of newBreakable, restoring restore
// (nil: nothing) with its panicAt-th write broken (0: none).
func spawnBreakable(t *testing.T, restore *model.Saved, panicAt int) (*harness, *Session, *published, *atomic.Int64) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	bus := &published{}
	saves := &atomic.Int64{}
	var session *actor.PID
	keep := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *keeper.Attach:
			session = m.Session
		case *keeper.Changed:
			saves.Add(1)
			ctx.Send(session, &keeper.SaveNow{})
		case *probe:
			ctx.Respond(m)
		}
	}))
	running := &atomic.Int64{}
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: countedPanes(running), Cols: 120, Rows: 40,
		Events: system.Root.Spawn(bus.props()), Keeper: keep, SessionFile: "unused: the keeper here writes nothing", Restore: restore}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Events: opts.Events, Log: opts.Log}))
	routes := connect(system, &opts)
	s := newSession(opts)
	s.m.InjectPanic(panicAt)
	w := kit.NewWorker()
	s.worker = w
	// Under a parent that resumes it after a panic, as the server's root does.
	resume := actor.NewOneForOneStrategy(10, time.Second, func(any) actor.Directive { return actor.ResumeDirective })
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if p, ok := ctx.Message().(*actor.Props); ok {
			ctx.Respond(ctx.Spawn(p))
		}
	}, actor.WithSupervisor(resume)))
	pid, err := system.Root.RequestFuture(parent, actor.PropsFromProducer(func() actor.Actor { return s }, actor.WithDispatcher(w), actor.WithMailbox(actor.Unbounded(opts.Reads)), kit.Guarded(log)), 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, system: system, agents: opts.Agents, running: running, session: pid.(*actor.PID), routes: routes, keeper: keep, bus: opts.Events}
	return h, s, bus, saves
}

// TestTransactions_APanicInRestoreLeavesNothing breaks a restore at each
// of its writes in turn: the session then holds nothing of the file and
// runs no pane (it goes on, empty), until the write number passes the
// restore's last write and all of it is there.
func TestTransactions_APanicInRestoreLeavesNothing(t *testing.T) {
	saved := savedSession(2, 2, 2)
	for n := 1; ; n++ {
		if n > 500 {
			t.Fatalf("restore still panicking at write %d", n)
		}
		h, _, _, _ := spawnBreakable(t, saved, n)
		h.flush() // its first message discards what the broken restore left open
		snap := h.snapshot()
		state := h.state()
		if len(snap.Panes) == 8 {
			if n == 1 {
				t.Fatal("the restore wrote nothing")
			}
			return // every write of the restore has been broken once
		}
		if len(snap.Workspaces) != 0 || len(snap.Panes) != 0 || h.running.Load() != 0 {
			t.Fatalf("restore broken at write %d left part of itself:\n%s", n, state)
		}
	}
}

// send sends what k makes of the call, as another actor would, and
// returns the reply the session sends the call's caller.
func (h *harness) send(method, params string, k func(*kit.Call) any) *kit.Reply {
	h.t.Helper()
	p, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		h.t.Fatal(err)
	}
	res, err := h.system.Root.RequestFuture(h.session, k(&kit.Call{ID: "t", Method: method, Params: p}), 5*time.Second).Result()
	if err != nil {
		h.t.Fatalf("%s: %v", method, err)
	}
	return res.(*kit.Reply)
}

// probe goes round a stub.
type probe struct{}

// flush waits until the session has handled what it was sent, the stub
// keeper and bus what the session told them before that, and the session
// the stub keeper's answer.
func (h *harness) flush() {
	h.t.Helper()
	h.nudge()
	h.sync()
	for _, stub := range []*actor.PID{h.keeper, h.bus} {
		if _, err := h.system.Root.RequestFuture(stub, &probe{}, 5*time.Second).Result(); err != nil {
			h.t.Fatal(err)
		}
	}
	h.sync() // and the SaveNow the stub answered with
}

// nudge has the session handle one message that changes nothing (the
// focus of a pane that is not there): after a panic it discards the
// transaction the panic left open, which a read, answered from the read
// side, does not make it do.
func (h *harness) nudge() {
	h.t.Helper()
	ask := &kit.FocusPane{Call: &kit.Call{ID: "n", Method: "plugin.pane.focus"}, TermID: "none", NotFound: protocol.Errorf(protocol.CodePaneNotFound, "no pane")}
	if _, err := h.system.Root.RequestFuture(h.session, ask, 5*time.Second).Result(); err != nil {
		h.t.Fatal(err)
	}
}

// state is what a client can see of the session: its snapshot, and how
// many pane actors run.
func (h *harness) state() string {
	h.t.Helper()
	s := h.snapshot()
	snap, _ := json.Marshal(s)
	// Pane actors start and stop after the session's message: wait for
	// the count to agree with the panes the session shows, for a while.
	for deadline := time.Now().Add(time.Second); h.running.Load() != int64(len(s.Panes)) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Sprintf("%s\npanes running %d", snap, h.running.Load())
}

// countedPanes stands in for terminals and counts the pane actors alive:
// one is counted as it is made (the producer runs inside the spawn), not
// when it starts, so a pane stopped before it started never shows up late.
func countedPanes(running *atomic.Int64) func(pane.Spec) (*actor.Props, func(), error) {
	return func(pane.Spec) (*actor.Props, func(), error) {
		return actor.PropsFromProducer(func() actor.Actor {
			running.Add(1)
			return actor.ReceiveFunc(func(ctx actor.Context) {
				if _, ok := ctx.Message().(*actor.Stopped); ok {
					running.Add(-1)
				}
			})
		}), func() {}, nil
	}
}
