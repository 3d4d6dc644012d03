package session

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// quietPane stands in for a terminal: the structure tests need pane actors
// to exist, not PTYs.
func quietPane(pane.Spec) (*actor.Props, func(), error) {
	return actor.PropsFromFunc(func(actor.Context) {}), func() {}, nil
}

type harness struct {
	t       *testing.T
	system  *actor.ActorSystem
	session *actor.PID
	routes  *kit.SessionRoutes // how a connection routes its calls
	agents  *actor.PID
	running *atomic.Int64 // pane actors running, when counted
	keeper  *actor.PID    // a stub keeper, when there is one
	bus     *actor.PID    // a stub bus, when there is one
}

func newHarness(t *testing.T) *harness {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	return spawnSession(t, system, Options{
		Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40,
	})
}

// spawnSession starts an agents actor and a session with opts beside it,
// as the server does.
func spawnSession(t *testing.T, system *actor.ActorSystem, opts Options) *harness {
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Events: opts.Events, Log: opts.Log}))
	routes := connect(system, &opts)
	return &harness{t: t, system: system, session: system.Root.Spawn(Props(opts)), routes: routes, agents: opts.Agents}
}

// connect gives opts (its Agents set) what a connection routes by — a
// read side and the entities supervisor, as the server does — and returns
// the routes: a read answered from the read side, a call of the agents
// actor, a workspace, a tab or a pane sent to its actor, a write to the
// session.
func connect(system *actor.ActorSystem, opts *Options) *kit.SessionRoutes {
	if opts.Reads == nil {
		opts.Reads = view.NewReadSide()
	}
	if opts.Entities == nil {
		opts.Entities = system.Root.Spawn(entities.Props(entities.Options{WorkspaceProps: opts.WorkspaceProps, TabProps: opts.TabProps, Log: opts.Log}))
	}
	cfg := opts.Config
	return &kit.SessionRoutes{Reads: opts.Reads, Owners: kit.Owners{Agents: opts.Agents, Entities: opts.Entities},
		GateOpen: func(gate string) bool { return cfg.GateOpen(gate) }}
}

// ask sends call as a connection does (routes) and waits for its answer.
func ask(system *actor.ActorSystem, routes *kit.SessionRoutes, session *actor.PID, call *kit.Call, within time.Duration) (any, error) {
	f := actor.NewFuture(system, within)
	routes.Send(system.Root, session, call, f.PID())
	return f.Result()
}

// sync waits until the agents actor has applied everything the session
// told it so far, and the session what the agents actor told it back.
func (h *harness) sync() {
	h.t.Helper()
	// Routed once the session has handled what it was sent, the call
	// reaches the agents actor after what the session forwarded; the
	// agents actor sends its Shown before it answers, so the next call
	// finds them applied.
	h.call("agent.view.get", `{}`)
}

// call sends one request as the gateway would and returns its reply.
func (h *harness) call(method string, params string) *kit.Reply {
	h.t.Helper()
	p, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		return kit.Fail(err)
	}
	res, err := ask(h.system, h.routes, h.session, &kit.Call{ID: "t", Method: method, Params: p}, 5*time.Second)
	if err != nil {
		h.t.Fatalf("%s: %v", method, err)
	}
	return res.(*kit.Reply)
}

// setArea is a client.resize as the clients actor hands it on.
func (h *harness) setArea(cols, rows int) *kit.Reply {
	h.t.Helper()
	call := &kit.Call{ID: "t", Method: "client.resize", Params: &protocol.ClientResizeParams{Cols: cols, Rows: rows}}
	res, err := h.system.Root.RequestFuture(h.session, &kit.SetArea{Call: call, Cols: cols, Rows: rows}, 5*time.Second).Result()
	if err != nil {
		h.t.Fatalf("client.resize: %v", err)
	}
	return res.(*kit.Reply)
}

func (h *harness) snapshot() protocol.SessionSnapshot {
	r := h.call("session.snapshot", "{}")
	return r.Result.(protocol.SessionSnapshotResult).Snapshot
}

// checkInvariants: every pane is in exactly one tab and one layout; the
// layout of every unzoomed tab tiles the area without overlap.
func (h *harness) checkInvariants(step string) {
	h.t.Helper()
	snap := h.snapshot()
	seen := map[string]string{}
	for _, p := range snap.Panes {
		if prev, dup := seen[p.PaneID]; dup {
			h.t.Fatalf("%s: pane %s listed twice (%s)", step, p.PaneID, prev)
		}
		seen[p.PaneID] = p.TabID
	}
	inLayout := map[string]bool{}
	for _, l := range snap.Layouts {
		cover := make([]int, 120*40)
		for _, lp := range l.Panes {
			if seen[lp.PaneID] != l.TabID {
				h.t.Fatalf("%s: layout of %s shows pane %s of tab %q", step, l.TabID, lp.PaneID, seen[lp.PaneID])
			}
			if inLayout[lp.PaneID] {
				h.t.Fatalf("%s: pane %s in two layouts", step, lp.PaneID)
			}
			inLayout[lp.PaneID] = true
			if l.Zoomed {
				continue
			}
			r := lp.Rect
			for y := r.Y; y < r.Y+r.Height; y++ {
				for x := r.X; x < r.X+r.Width; x++ {
					cover[y*120+x]++
				}
			}
		}
		if !l.Zoomed {
			for i, c := range cover {
				if c != 1 {
					h.t.Fatalf("%s: tab %s covers cell %d %d times", step, l.TabID, i, c)
				}
			}
		}
	}
	if len(inLayout) != len(seen) {
		h.t.Fatalf("%s: %d panes but %d in layouts", step, len(seen), len(inLayout))
	}
	for _, tb := range snap.Tabs {
		n := 0
		for _, tabID := range seen {
			if tabID == tb.TabID {
				n++
			}
		}
		if n != tb.PaneCount || n == 0 {
			h.t.Fatalf("%s: tab %s has pane_count %d but %d panes", step, tb.TabID, tb.PaneCount, n)
		}
	}
}

// TestSession_RandomOperations runs random structural operations through
// the session and checks the invariants after each one.
func TestSession_RandomOperations(t *testing.T) {
	h := newHarness(t)
	rng := rand.New(rand.NewSource(7))
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	dirs := []string{"left", "right", "up", "down"}
	// The model's own random test runs thousands of operations on the
	// pure model; this one checks the session's handlers on top of it.
	for step := 0; step < 600; step++ {
		snap := h.snapshot()
		if len(snap.Panes) == 0 {
			h.call("workspace.create", `{"cwd":"/tmp"}`)
			continue
		}
		p := snap.Panes[rng.Intn(len(snap.Panes))].PaneID
		q := snap.Panes[rng.Intn(len(snap.Panes))].PaneID
		tb := snap.Tabs[rng.Intn(len(snap.Tabs))].TabID
		var method, params string
		switch op := rng.Intn(12); op {
		case 0, 1:
			method, params = "pane.split", fmt.Sprintf(`{"target_pane_id":%q,"direction":%q,"ratio":%.2f}`, p, []string{"right", "down"}[rng.Intn(2)], 0.1+rng.Float64()*0.8)
		case 2:
			method, params = "pane.close", fmt.Sprintf(`{"pane_id":%q}`, p)
		case 3:
			method, params = "pane.swap", fmt.Sprintf(`{"source_pane_id":%q,"target_pane_id":%q}`, p, q)
		case 4:
			method, params = "pane.swap", fmt.Sprintf(`{"pane_id":%q,"direction":%q}`, p, dirs[rng.Intn(4)])
		case 5:
			method, params = "pane.move", fmt.Sprintf(`{"pane_id":%q,"destination":{"type":"tab","tab_id":%q,"split":"down"}}`, p, tb)
		case 6:
			method, params = "pane.move", fmt.Sprintf(`{"pane_id":%q,"destination":{"type":"new_tab"}}`, p)
		case 7:
			method, params = "pane.move", fmt.Sprintf(`{"pane_id":%q,"destination":{"type":"new_workspace"}}`, p)
		case 8:
			method, params = "pane.zoom", fmt.Sprintf(`{"pane_id":%q}`, p)
		case 9:
			method, params = "pane.resize", fmt.Sprintf(`{"pane_id":%q,"direction":%q,"amount":0.2}`, p, dirs[rng.Intn(4)])
		case 10:
			method, params = "tab.create", `{"cwd":"/tmp"}`
		case 11:
			method, params = "pane.focus_direction", fmt.Sprintf(`{"pane_id":%q,"direction":%q}`, p, dirs[rng.Intn(4)])
		}
		r := h.call(method, params)
		if r.Err != nil && protocol.AsError(r.Err).Code == protocol.CodeInternal {
			t.Fatalf("step %d %s %s: %v", step, method, params, r.Err)
		}
		h.checkInvariants(fmt.Sprintf("step %d %s %s", step, method, params))
	}
}

// A pane actor that panics is stopped by the session's supervision and the
// pane closes as if its program had exited: nothing is left routing to a
// dead actor.
func TestSupervision_FailedPaneCloses(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	fragile := func(pane.Spec) (*actor.Props, func(), error) {
		return actor.PropsFromFunc(func(ctx actor.Context) {
			if _, ok := ctx.Message().(*pane.Resize); ok {
				panic("a pane that breaks on resize")
			}
		}), func() {}, nil
	}
	h := spawnSession(t, system, Options{
		Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: fragile, Cols: 120, Rows: 40,
	})
	h.call("workspace.create", `{}`)
	h.call("workspace.create", `{}`)
	if n := len(h.snapshot().Panes); n != 2 {
		t.Fatalf("%d panes, want 2", n)
	}
	h.setArea(100, 30)
	deadline := time.Now().Add(5 * time.Second)
	for len(h.snapshot().Panes) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if snap := h.snapshot(); len(snap.Panes) != 0 || len(snap.Workspaces) != 0 {
		t.Fatalf("after the panes failed: %d panes, %d workspaces; want none", len(snap.Panes), len(snap.Workspaces))
	}
	h.checkInvariants("after failed panes")
}

// breakOn makes entity actors panic (outside their handlers' guard) on a
// request that renames to "boom".
func breakOn(props *actor.Props) *actor.Props {
	// The actor reads its message through the decorated context: the
	// panic comes from inside its Receive, where its guard is
	// (kit.GuardActor), once per message (the guard reads it again).
	return props.Configure(actor.WithContextDecorator(func(next actor.ContextDecoratorFunc) actor.ContextDecoratorFunc {
		return func(ctx actor.Context) actor.Context { return &breaking{Context: next(ctx)} }
	}))
}

// breaking is a context whose first read of a rename to "boom" panics.
type breaking struct {
	actor.Context
	broke any // the message it panicked on
}

func (b *breaking) Message() any {
	msg := b.Context.Message()
	var label string
	switch m := msg.(type) {
	case *wsactor.Request:
		if prm, ok := m.Call.Params.(*protocol.WorkspaceRenameParams); ok {
			label = prm.Label
		}
	case *tabactor.Request:
		if prm, ok := m.Call.Params.(*protocol.TabRenameParams); ok {
			label = prm.Label
		}
	}
	if label == "boom" && msg != b.broke {
		b.broke = msg
		time.Sleep(50 * time.Millisecond) // the next call queues up behind this one
		panic("an entity actor that breaks")
	}
	return msg
}

// A workspace or tab actor that fails is restarted from the session's
// record: its label and tokens survive, and the calls queued behind the
// one that broke it are answered by the new instance. (The breaking call
// panics outside the handlers here, and is still answered internal_error
// by the actor's guard.)
func TestSupervision_FailedEntityIsRestarted(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	h := spawnSession(t, system, Options{
		Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40,
		WorkspaceProps: func(s *kit.Reseed[wsactor.Seed]) *actor.Props { return breakOn(wsactor.Props(s)) },
		TabProps:       func(s *kit.Reseed[tabactor.Seed]) *actor.Props { return breakOn(tabactor.Props(s)) },
	})
	h.call("workspace.create", `{"label":"keep"}`)
	h.call("workspace.report_metadata", `{"workspace_id":"w1","source":"ci","tokens":{"build":"green"}}`)
	h.call("tab.rename", `{"tab_id":"w1:t1","label":"logs"}`)

	for _, c := range []struct{ method, params string }{
		{"workspace.rename", `{"workspace_id":"w1","label":"boom"}`},
		{"tab.rename", `{"tab_id":"w1:t1","label":"boom"}`},
	} {
		call := func(params string) *actor.Future {
			prm, err := protocol.DecodeParams(c.method, []byte(params))
			if err != nil {
				t.Fatal(err)
			}
			f := actor.NewFuture(system, 2*time.Second)
			h.routes.Send(system.Root, h.session, &kit.Call{Method: c.method, Params: prm}, f.PID())
			return f
		}
		broken := call(c.params)
		queued := call(strings.Replace(c.params, "boom", "again", 1)) // waits in the mailbox behind it
		// Outside any handler: the actor's guard (kit.Guarded) answers it.
		res, err := broken.Result()
		if err != nil {
			t.Fatalf("%s that broke its actor was never answered: %v", c.method, err)
		}
		if e := protocol.AsError(res.(*kit.Reply).Err); e == nil || e.Code != protocol.CodeInternal {
			t.Fatalf("%s that broke its actor answered %v, want internal_error", c.method, e)
		}
		res, err = queued.Result()
		if err != nil {
			t.Fatalf("%s queued behind the failure was never answered: %v", c.method, err)
		}
		if r := res.(*kit.Reply); r.Err != nil {
			t.Fatalf("%s queued behind the failure: %v", c.method, r.Err)
		}
	}
	snap := h.snapshot()
	w, tb := snap.Workspaces[0], h.call("tab.get", `{"tab_id":"w1:t1"}`).Result.(protocol.TabInfoResult).Tab
	if w.Label != "again" || w.Tokens["build"] != "green" || tb.Label != "again" {
		t.Fatalf("after restarts: workspace %q tokens %v, tab %q", w.Label, w.Tokens, tb.Label)
	}
	// The restarted actors go on from the session's revision: a further
	// change is taken, not dropped as stale.
	h.call("workspace.rename", `{"workspace_id":"w1","label":"third"}`)
	h.call("tab.rename", `{"tab_id":"w1:t1","label":"third"}`)
	w, tb = h.snapshot().Workspaces[0], h.call("tab.get", `{"tab_id":"w1:t1"}`).Result.(protocol.TabInfoResult).Tab
	if w.Label != "third" || tb.Label != "third" {
		t.Fatalf("a change after the restart was dropped: workspace %q, tab %q", w.Label, tb.Label)
	}
	h.checkInvariants("after restarted entities")
}
