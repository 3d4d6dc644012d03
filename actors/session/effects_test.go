package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// effectLog records every effect of the session another actor can see:
// the events the bus gets, the pane actors started and stopped, the ids
// panes are told, and the workspace and tab actors started and stopped.
type effectLog struct {
	mu     sync.Mutex
	events []string // kind and the entity it names
	lines  []string // everything else, "start pane T", "stop tab w1:t1", "ids T w2:p1"
}

func (l *effectLog) add(to *[]string, s string) {
	l.mu.Lock()
	*to = append(*to, s)
	l.mu.Unlock()
}

// take returns what was recorded since the last take.
func (l *effectLog) take() (evs, lines []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	evs, lines = l.events, l.lines
	l.events, l.lines = nil, nil
	return evs, lines
}

func (l *effectLog) bus() *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *events.Publish:
			id := m.Fields.PaneID
			if id == "" {
				id = m.Fields.TabID
			}
			if id == "" {
				id = m.Fields.WorkspaceID
			}
			l.add(&l.events, m.Data.EventKind()+" "+id)
		case *probe:
			ctx.Respond(m)
		}
	})
}

// panes stands in for terminals, refusing to start one in failDir.
func (l *effectLog) panes(failDir string) func(pane.Spec) (*actor.Props, func(), error) {
	return func(spec pane.Spec) (*actor.Props, func(), error) {
		if spec.Cwd == failDir {
			return nil, nil, errors.New("refused by the test")
		}
		id := spec.TerminalID
		return actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *actor.Started:
				l.add(&l.lines, "start pane "+id)
			case *actor.Stopped:
				l.add(&l.lines, "stop pane "+id)
			case *pane.SetIDs:
				l.add(&l.lines, "ids "+id+" "+m.IDs.PaneID)
			}
		}), func() {}, nil
	}
}

// entity records its actor's start and stop.
func (l *effectLog) entity(props *actor.Props, kind, id string) *actor.Props {
	return props.Configure(actor.WithReceiverMiddleware(func(next actor.ReceiverFunc) actor.ReceiverFunc {
		return func(c actor.ReceiverContext, env *actor.MessageEnvelope) {
			switch env.Message.(type) {
			case *actor.Started:
				l.add(&l.lines, "start "+kind+" "+id)
			case *actor.Stopped:
				l.add(&l.lines, "stop "+kind+" "+id)
			}
			next(c, env)
		}
	}))
}

// spawnRecorded starts a session whose effects l records, under a parent
// that resumes it after a panic, as the server's root does; its model can
// be broken (s.m.InjectPanic).
func spawnRecorded(t *testing.T, l *effectLog, failDir string, wrap func(*Session) actor.Actor) (*harness, *Session) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: l.panes(failDir), Cols: 120, Rows: 40,
		Events: system.Root.Spawn(l.bus()),
		WorkspaceProps: func(r *kit.Reseed[wsactor.Seed]) *actor.Props {
			return l.entity(wsactor.Props(r), "workspace", r.Get().ID)
		},
		TabProps: func(r *kit.Reseed[tabactor.Seed]) *actor.Props {
			return l.entity(tabactor.Props(r), "tab", r.Get().ID)
		},
	}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Events: opts.Events, Log: opts.Log}))
	routes := connect(system, &opts)
	s := newSession(opts)
	s.worker = kit.NewWorker()
	resume := actor.NewOneForOneStrategy(10, time.Second, func(any) actor.Directive { return actor.ResumeDirective })
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if p, ok := ctx.Message().(*actor.Props); ok {
			ctx.Respond(ctx.Spawn(p))
		}
	}, actor.WithSupervisor(resume)))
	pid, err := system.Root.RequestFuture(parent, actor.PropsFromProducer(func() actor.Actor { return wrap(s) }, actor.WithDispatcher(s.worker), actor.WithMailbox(actor.Unbounded(opts.Reads)), kit.Guarded(log)), 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, system: system, agents: opts.Agents, session: pid.(*actor.PID), routes: routes, bus: opts.Events}, s
}

// settled waits until the session has handled what it was sent and the
// bus what the session sent it, then until the actors the session started
// or stopped have done so (the lines stop changing for a while: a pane
// actor stops after the session's message, on its own goroutine).
func (h *harness) settled(l *effectLog) (evs, lines []string) {
	h.t.Helper()
	h.nudge() // a transaction a panic left open is discarded
	h.sync()
	if _, err := h.system.Root.RequestFuture(h.bus, &probe{}, 5*time.Second).Result(); err != nil {
		h.t.Fatal(err)
	}
	for n := -1; ; {
		time.Sleep(20 * time.Millisecond)
		l.mu.Lock()
		m := len(l.lines)
		l.mu.Unlock()
		if m == n {
			return l.take()
		}
		n = m
	}
}

// terminal is the terminal id of a pane.
func (h *harness) terminal(paneID string) string {
	h.t.Helper()
	for _, p := range h.snapshot().Panes {
		if p.PaneID == paneID {
			return p.TerminalID
		}
	}
	h.t.Fatalf("no pane %s", paneID)
	return ""
}

// newRecorded is a session with workspace w1 (tab w1:t1 of panes w1:p1 and
// w1:p2, tab w1:t2 of w1:p3), focused on w1:t2, its effects recorded.
func newRecorded(t *testing.T, failDir string) (*harness, *Session, *effectLog) {
	return newRecordedAs(t, failDir, func(s *Session) actor.Actor { return s })
}

// newRecordedAs is newRecorded with the session wrapped by wrap.
func newRecordedAs(t *testing.T, failDir string, wrap func(*Session) actor.Actor) (*harness, *Session, *effectLog) {
	l := &effectLog{}
	h, s := spawnRecorded(t, l, failDir, wrap)
	for _, c := range [][2]string{
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`},
		{"tab.create", `{"workspace_id":"w1","cwd":"/tmp","focus":true}`},
	} {
		if r := h.call(c[0], c[1]); r.Err != nil {
			t.Fatalf("%s: %v", c[0], r.Err)
		}
	}
	h.settled(l)
	return h, s, l
}

// TestEffects_AFailedCallAppliesNone: a call that fails after its
// transaction has started a pane actor, queued an entity actor and
// replaced nothing yet answers its error and leaves no effect: no event,
// no workspace or tab actor started or stopped, no pane of the session
// stopped, and the pane actor it started is stopped.
func TestEffects_AFailedCallAppliesNone(t *testing.T) {
	failDir := t.TempDir()
	h, _, l := newRecorded(t, failDir)
	before, _ := json.Marshal(h.snapshot())
	r := h.call("layout.apply", fmt.Sprintf(`{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,`+
		`"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":%q}}}`, failDir))
	if r.Err == nil || protocol.AsError(r.Err).Code != "layout_apply_failed" {
		t.Fatalf("layout.apply with a pane that cannot start: %v, want layout_apply_failed", r.Err)
	}
	evs, lines := h.settled(l)
	if len(evs) > 0 {
		t.Errorf("a failed call published %v", evs)
	}
	// The one pane actor it started, and nothing else, starts and stops.
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "start pane ") || lines[1] != "stop pane "+lines[0][len("start pane "):] {
		t.Errorf("a failed call's actors: %q, want one pane started then stopped", lines)
	}
	if after, _ := json.Marshal(h.snapshot()); string(after) != string(before) {
		t.Errorf("a failed call changed the session:\n%s\nwant\n%s", after, before)
	}

	// The same call with every pane startable goes through, and applies
	// each of its effects once.
	p1, p2 := h.terminal("w1:p1"), h.terminal("w1:p2")
	r = h.call("layout.apply", `{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,`+
		`"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":"/tmp"}}}`)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	evs, lines = h.settled(l)
	checkLayoutApplied(t, h, evs, lines, p1, p2)
}

// checkLayoutApplied checks the effects of layout.apply replacing w1:t1
// (panes p1 and p2) by the new tab w1:t3 of w1:p4 and w1:p5, focused:
// each exactly once, the events in the order the change made them.
func checkLayoutApplied(t *testing.T, h *harness, evs, lines []string, p1, p2 string) {
	t.Helper()
	want := []string{
		"tab_created w1:t3", "pane_created w1:p4", "pane_created w1:p5",
		"pane_closed w1:p1", "pane_closed w1:p2", "tab_closed w1:t1",
		"layout_updated w1:t3", "tab_focused w1:t3", "pane_focused w1:p4",
	}
	if !slices.Equal(evs, want) {
		t.Errorf("events:\n%q\nwant\n%q", evs, want)
	}
	p4, p5 := h.terminal("w1:p4"), h.terminal("w1:p5")
	wantLines := []string{"start pane " + p4, "start pane " + p5, "stop pane " + p1, "stop pane " + p2, "start tab w1:t3", "stop tab w1:t1"}
	slices.Sort(lines)
	slices.Sort(wantLines)
	if !slices.Equal(lines, wantLines) {
		t.Errorf("actors:\n%q\nwant\n%q", lines, wantLines)
	}
}

// TestEffects_ABrokenCallAppliesNone breaks layout.apply and pane.move at
// each of their writes in turn: nothing they queued is applied (no event,
// no entity actor started or stopped, no pane told new ids, no pane of
// the session stopped; the pane actors they started stop), until the
// change goes through whole and applies each effect once, in order.
func TestEffects_ABrokenCallAppliesNone(t *testing.T) {
	t.Run("layout.apply", func(t *testing.T) {
		h, s, l := newRecorded(t, "")
		p1, p2 := h.terminal("w1:p1"), h.terminal("w1:p2")
		for n := 1; ; n++ {
			if n > 200 {
				t.Fatalf("still panicking at write %d", n)
			}
			s.m.InjectPanic(n)
			r := h.call("layout.apply", `{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,`+
				`"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":"/tmp"}}}`)
			evs, lines := h.settled(l)
			if r.Err == nil {
				checkLayoutApplied(t, h, evs, lines, p1, p2)
				return
			}
			checkNoneApplied(t, n, evs, lines)
		}
	})
	t.Run("pane.move", func(t *testing.T) {
		h, s, l := newRecorded(t, "")
		p3 := h.terminal("w1:p3")
		for n := 1; ; n++ {
			if n > 200 {
				t.Fatalf("still panicking at write %d", n)
			}
			s.m.InjectPanic(n)
			r := h.call("pane.move", `{"pane_id":"w1:p3","destination":{"type":"new_workspace"},"focus":true}`)
			evs, lines := h.settled(l)
			if r.Err != nil {
				checkNoneApplied(t, n, evs, lines)
				continue
			}
			if want := []string{"start workspace w2", "start tab w2:t1", "ids " + p3 + " w2:p1", "stop tab w1:t2"}; !sameSet(lines, want) {
				t.Errorf("actors and ids:\n%q\nwant\n%q", lines, want)
			}
			want := []string{"tab_closed w1:t2", "workspace_created w2", "tab_created w2:t1", "pane_moved w2:p1",
				"layout_updated w2:t1", "workspace_focused w2", "tab_focused w2:t1"}
			if !slices.Equal(evs, want) {
				t.Errorf("events:\n%q\nwant\n%q", evs, want)
			}
			return
		}
	})
}

// checkNoneApplied: a call broken at write n published nothing and
// started or stopped no actor but the pane actors it started itself.
func checkNoneApplied(t *testing.T, n int, evs, lines []string) {
	t.Helper()
	if len(evs) > 0 {
		t.Fatalf("broken at write %d, published %q", n, evs)
	}
	started := map[string]bool{}
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "start pane "):
			started[line[len("start pane "):]] = true
		case strings.HasPrefix(line, "stop pane ") && started[line[len("stop pane "):]]:
			delete(started, line[len("stop pane "):])
		default:
			t.Fatalf("broken at write %d, applied %q (all: %q)", n, line, lines)
		}
	}
	if len(started) > 0 {
		t.Fatalf("broken at write %d, left pane actors running: %v", n, started)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// scripted is a session that also runs a test's script as the handler of
// a call, to queue any effects a handler can and then fail or not.
type scripted struct{ *Session }

type script struct {
	run func(s *Session, ctx actor.Context) *kit.Reply
}

func (w scripted) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*script); ok {
		w.handle(ctx, &kit.Call{ID: "t", Method: "test.script"}, func() *kit.Reply { return m.run(w.Session, ctx) })
		return
	}
	w.Session.Receive(ctx)
}

// TestEffects_AFailedCallDropsWhatItQueued: a handler that queues one
// effect of every kind (an event, a pane actor to stop, a pane to tell its
// ids, a tab actor to start, a message to another actor, a tab to resize)
// and then fails applies none of them; the same effects committed apply
// once each, the events in the order they were made, then the layout and
// focus events the change implies.
func TestEffects_AFailedCallDropsWhatItQueued(t *testing.T) {
	h, _, l := newRecordedAs(t, "", func(s *Session) actor.Actor { return scripted{s} })
	p1, p2 := h.terminal("w1:p1"), h.terminal("w1:p2")
	run := func(fail bool) *kit.Reply {
		res, err := h.system.Root.RequestFuture(h.session, &script{run: func(s *Session, ctx actor.Context) *kit.Reply {
			a, b := s.recs.Get(p1), s.recs.Get(p2)
			s.apply(model.Out{Events: []model.Event{{Data: protocol.PaneRefEvent{Kind: "pane_exited", PaneID: a.ID(), WorkspaceID: a.WS().ID()}, Fields: s.recs.Fields(a)}}})
			s.apply(s.tx.ClosePane(s.env(), a.Pane)) // pane_closed, a stopped, its tab resized
			s.apply(model.Out{Effects: []model.Effect{model.TellIDs{Pane: b.Pane}}})
			s.tx.do(tell{b.PID, &pane.SetIDs{IDs: pane.IDs{PaneID: "told"}}})
			if fail {
				s.apply(model.Out{Effects: []model.Effect{model.Start{Entity: s.tx.AddTab(a.WS(), "never")}}}) // a tab whose actor would start
				return kit.Fail(protocol.Errorf("test_failure", "the script fails"))
			}
			return kit.OK()
		}}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	before, _ := json.Marshal(h.snapshot())
	if r := run(true); r.Err == nil || protocol.AsError(r.Err).Code != "test_failure" {
		t.Fatalf("failing script answered %v, want test_failure", r.Err)
	}
	if evs, lines := h.settled(l); len(evs)+len(lines) > 0 {
		t.Errorf("a failed call applied events %q and %q", evs, lines)
	}
	if after, _ := json.Marshal(h.snapshot()); string(after) != string(before) {
		t.Errorf("a failed call changed the session:\n%s\nwant\n%s", after, before)
	}
	// One that wrote nothing to the model but queued effects drops them too.
	res, err := h.system.Root.RequestFuture(h.session, &script{run: func(s *Session, ctx actor.Context) *kit.Reply {
		b := s.recs.Get(p2)
		s.apply(model.Out{Events: []model.Event{{Data: protocol.PaneEvent{Kind: "pane_updated", Pane: s.recs.PaneInfo(b.Pane)}, Fields: s.recs.Fields(b)}}})
		s.apply(model.Out{Effects: []model.Effect{model.TellIDs{Pane: b.Pane}, model.Stop{Pane: b.Pane}}})
		return kit.Fail(protocol.Errorf("test_failure", "the script fails"))
	}}, 5*time.Second).Result()
	if err != nil || res.(*kit.Reply).Err == nil {
		t.Fatalf("failing script: %v, %v", err, res)
	}
	if evs, lines := h.settled(l); len(evs)+len(lines) > 0 {
		t.Errorf("a failed call that wrote no topology applied events %q and %q", evs, lines)
	}

	if r := run(false); r.Err != nil {
		t.Fatal(r.Err)
	}
	evs, lines := h.settled(l)
	if want := []string{"pane_exited w1:p1", "pane_closed w1:p1", "layout_updated w1:t1"}; !slices.Equal(evs, want) {
		t.Errorf("events:\n%q\nwant\n%q", evs, want)
	}
	// The pane stops; the other is told its ids (tellIDs), then the
	// message (tell), in that order (one actor's mailbox keeps it).
	if want := []string{"ids " + p2 + " w1:p2", "ids " + p2 + " told", "stop pane " + p1}; !sameSet(lines, want) {
		t.Errorf("actors:\n%q\nwant\n%q", lines, want)
	}
	told := slices.DeleteFunc(slices.Clone(lines), func(s string) bool { return !strings.HasPrefix(s, "ids ") })
	if want := []string{"ids " + p2 + " w1:p2", "ids " + p2 + " told"}; !slices.Equal(told, want) {
		t.Errorf("told %q, want %q in order", told, want)
	}
}
