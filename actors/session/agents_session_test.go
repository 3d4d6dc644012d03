package session

import (
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// newHarnessWith is newHarness with a configuration and an event bus (the
// session applies pane facts only when it has one to publish to).
func newHarnessWith(t *testing.T, cfg config.Config) *harness {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	bus := system.Root.Spawn(events.Props(0, log))
	return spawnSession(t, system, Options{Env: os.Getenv, Log: log, Config: cfg, PaneProps: quietPane, Cols: 120, Rows: 40, Events: bus})
}

// agentPanes makes n workspaces and reports an agent in each, as their
// panes would.
func (h *harness) agentPanes(agents ...[2]string) []protocol.PaneInfo {
	for range agents {
		if r := h.call("workspace.create", `{}`); r.Err != nil {
			h.t.Fatal(r.Err)
		}
	}
	panes := h.call("pane.list", `{}`).Result.(protocol.PaneList).Panes
	for i, a := range agents {
		h.system.Root.Send(h.session, &pane.Facts{TerminalID: panes[i].TerminalID, Agent: a[0], AgentState: a[1]})
	}
	h.sync()
	return h.call("pane.list", `{}`).Result.(protocol.PaneList).Panes
}

// view is the agent view and the pane ids of the agents it shows.
func (h *harness) view() (protocol.AgentViewList, []string) {
	h.t.Helper()
	list := h.call("agent.view.get", `{}`).Result.(protocol.AgentViewList)
	return list, list.PaneIDs
}

func TestAgentView_FilterAndSort(t *testing.T) {
	h := newHarnessWith(t, config.Default())
	h.agentPanes([2]string{"claude", "idle"}, [2]string{"codex", "blocked"}, [2]string{"claude", "working"}, [2]string{"", ""})
	h.call("pane.report_metadata", `{"pane_id":"w1:p1","source":"s","tokens":{"prio":"b"}}`)
	h.call("pane.report_metadata", `{"pane_id":"w3:p1","source":"s","tokens":{"prio":"a"}}`)
	if _, got := h.view(); len(got) != 3 || got[0] != "w1:p1" || got[2] != "w3:p1" {
		t.Fatalf("without a view: %v, want the three agents in order", got)
	}
	for _, c := range []struct {
		params string
		want   []string
	}{
		{`{"source":"t","filter":{"op":"eq","field":"agent","value":"claude"}}`, []string{"w1:p1", "w3:p1"}},
		{`{"source":"t","sort":[{"field":"attention"}]}`, []string{"w2:p1", "w3:p1", "w1:p1"}},
		{`{"source":"t","filter":{"op":"exists","field":{"token":"prio"}},"sort":[{"field":{"token":"prio"}}]}`, []string{"w3:p1", "w1:p1"}},
		{`{"source":"t","filter":{"op":"not","filter":{"op":"in","field":"status","values":["idle","working"]}}}`, []string{"w2:p1"}},
		{`{"source":"t","filter":{"op":"eq","field":"workspace_id","value":{"context":"current_workspace_id"}}}`, []string{"w1:p1"}},
		{`{"source":"t","filter":{"op":"all","filters":[{"op":"eq","field":"seen","value":true},{"op":"eq","field":"agent","value":"claude"}]},"sort":[{"field":"pane_order","order":"desc"}]}`, []string{"w3:p1", "w1:p1"}},
	} {
		r := h.call("agent.view.set", c.params)
		if r.Err != nil {
			t.Fatalf("%s: %v", c.params, r.Err)
		}
		v, got := h.view()
		if !v.Active || len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) || got[len(got)-1] != c.want[len(c.want)-1] {
			t.Errorf("%s: %v, want %v", c.params, got, c.want)
		}
	}
	if r := h.call("agent.view.set", `{"source":"plugin:nope"}`); protocol.AsError(r.Err).Code != "plugin_not_found" {
		t.Fatalf("plugin source: %v", r.Err)
	}
}

func TestAuthority_FullLifecycleAndIdentityOnly(t *testing.T) {
	h := newHarnessWith(t, config.Default())
	panes := h.agentPanes([2]string{"opencode", "working"}, [2]string{"claude", "working"})
	term := panes[0].TerminalID
	status := func(id string) protocol.AgentStatus {
		return h.call("pane.get", `{"pane_id":"`+id+`"}`).Result.(protocol.PaneInfoResult).Pane.AgentStatus
	}
	h.call("pane.report_agent", `{"pane_id":"w1:p1","source":"herdr:opencode","agent":"opencode","state":"blocked"}`)
	if st := status("w1:p1"); st != protocol.StatusBlocked {
		t.Fatalf("full-lifecycle report: %s, want blocked", st)
	}
	h.system.Root.Send(h.session, &pane.Facts{TerminalID: term, Agent: "opencode", AgentState: "idle"})
	h.sync()
	if st := status("w1:p1"); st != protocol.StatusBlocked {
		t.Fatalf("screen change under full-lifecycle authority: %s, want blocked", st)
	}
	// The process exits: its authority goes with it.
	h.system.Root.Send(h.session, &pane.Facts{TerminalID: term})
	h.sync()
	if st := status("w1:p1"); st != protocol.StatusUnknown {
		t.Fatalf("after the agent exited: %s, want unknown", st)
	}
	h.call("pane.report_agent", `{"pane_id":"w2:p1","source":"herdr:codex","agent":"claude","state":"idle"}`)
	if st := status("w2:p1"); st != protocol.StatusWorking {
		t.Fatalf("identity-only report: %s, want working", st)
	}
	h.call("pane.report_agent", `{"pane_id":"w2:p1","source":"herdr:hermes","agent":"claude","state":"idle"}`)
	if st := status("w2:p1"); st != protocol.StatusWorking {
		t.Fatalf("session-only source's report: %s, want working", st)
	}
}

// recorder is a stand-in client connection that keeps what it is sent.
type recorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *recorder) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *kit.Toast, *kit.WindowTitle, *kit.Reply:
		r.mu.Lock()
		r.msgs = append(r.msgs, m)
		r.mu.Unlock()
	}
}

func TestAgentWait_CallerGoneDropsWait(t *testing.T) {
	h := newHarnessWith(t, config.Default())
	panes := h.agentPanes([2]string{"claude", "working"}, [2]string{"codex", "working"})
	var mu sync.Mutex
	dead := 0
	h.system.EventStream.Subscribe(func(evt any) {
		if d, ok := evt.(*actor.DeadLetterEvent); ok {
			if _, reply := d.Message.(*kit.Reply); reply {
				mu.Lock()
				dead++
				mu.Unlock()
			}
		}
	})
	wait := func(target string) *actor.PID {
		rec := &recorder{}
		caller := h.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
		p, _ := protocol.DecodeParams("agent.wait", []byte(`{"target":"`+target+`","until":["blocked"]}`))
		h.routes.Send(h.system.Root, h.session, &kit.Call{ID: "w", Method: "agent.wait", Params: p}, caller)
		h.sync() // the wait is registered once the agents actor answers this
		return caller
	}
	// Control: a wait whose caller is gone when it is answered dead-letters.
	gone := wait("w2:p1")
	h.system.Root.Stop(gone)
	kept := wait("w1:p1")
	h.system.Root.Stop(kept)
	time.Sleep(200 * time.Millisecond)
	for _, p := range panes {
		h.system.Root.Send(h.session, &pane.Facts{TerminalID: p.TerminalID, Agent: *p.Agent, AgentState: "blocked"})
	}
	h.call("agent.list", `{}`)
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if dead != 0 {
		t.Fatalf("%d answers went to callers that had gone; their waits should have been dropped", dead)
	}
}

// Focusing a tab marks its finished agents seen before the focusing call
// is answered: a read right after it never shows them done.
func TestFocus_SeenBeforeTheAnswer(t *testing.T) {
	h := newHarnessWith(t, config.Default())
	panes := h.agentPanes([2]string{"claude", "working"}, [2]string{"codex", "working"})
	// w2's agent finishes while w1 is on screen: done.
	h.system.Root.Send(h.session, &pane.Facts{TerminalID: panes[1].TerminalID, Agent: "codex", AgentState: "idle"})
	h.sync()
	status := func() protocol.AgentStatus {
		return h.call("pane.get", `{"pane_id":"w2:p1"}`).Result.(protocol.PaneInfoResult).Pane.AgentStatus
	}
	if st := status(); st != protocol.StatusDone {
		t.Fatalf("finished off screen: %s, want done", st)
	}
	for range 20 { // the answer must not race the agents actor
		h.call("workspace.focus", `{"workspace_id":"w2"}`)
		if st := status(); st != protocol.StatusIdle {
			t.Fatalf("right after focusing its workspace: %s, want idle", st)
		}
		h.call("workspace.focus", `{"workspace_id":"w1"}`)
	}
	if r := h.call("agent.focus", `{"target":"w1:p1"}`); r.Err != nil || r.Result.(protocol.AgentInfoResult).Agent.PaneID != "w1:p1" {
		t.Fatalf("agent.focus: %+v", r)
	}
}
