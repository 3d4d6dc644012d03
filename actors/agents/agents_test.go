package agents

import (
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// log is what the stand-ins around the actor saw, in the order they saw it.
type log struct {
	mu   sync.Mutex
	msgs []any
}

func (l *log) add(m any) {
	l.mu.Lock()
	l.msgs = append(l.msgs, m)
	l.mu.Unlock()
}

func (l *log) all() []any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]any(nil), l.msgs...)
}

// rig is the agents actor with one stand-in playing the session, the bus
// and the caller: its mailbox keeps the order the actor sent things in.
type rig struct {
	t       *testing.T
	system  *actor.ActorSystem
	agents  *actor.PID
	session *actor.PID
	caller  *actor.PID
	seen    *log
}

func newRig(t *testing.T) *rig {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	seen := &log{}
	keep := func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *Shown, *Answer, *events.Publish, *kit.Reply:
			seen.add(m)
		}
	}
	r := &rig{t: t, system: system, seen: seen}
	r.session = system.Root.Spawn(actor.PropsFromFunc(keep))
	r.caller = r.session
	r.agents = system.Root.Spawn(Props(Options{Events: r.session, Log: quiet}))
	system.Root.Send(r.agents, &SetSession{PID: r.session})
	return r
}

// place puts panes p1…pN in tabs: tabs[i] is pane i's tab (workspace w1).
func (r *rig) place(focused string, tabs ...string) {
	terms := make([]string, len(tabs))
	for i := range tabs {
		terms[i] = string(rune('1' + i))
	}
	r.placeTerms(focused, terms, tabs)
}

// placeTerms places the panes of terminals term_<terms[i]> in tabs[i].
func (r *rig) placeTerms(focused string, terms, tabs []string) {
	pl := &Placement{FocusedWorkspace: "w1", FocusedTab: focused}
	for i, id := range terms {
		pl.Panes = append(pl.Panes, Place{TermID: "term_" + id, PaneID: "w1:p" + id, TabID: tabs[i], WorkspaceID: "w1"})
	}
	r.system.Root.Send(r.agents, pl)
}

func (r *rig) screen(term, agent, state string) {
	r.system.Root.Send(r.agents, &pane.Facts{TerminalID: term, Agent: agent, AgentState: state})
}

// call forwards a method as the session would, with the rig's caller as sender.
func (r *rig) call(method, term, params string) {
	r.t.Helper()
	prm, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		r.t.Fatal(err)
	}
	r.system.Root.RequestWithCustomSender(r.agents, &Request{Call: &kit.Call{Method: method, Params: prm}, TermID: term}, r.caller)
}

// settle waits until the actor has handled everything sent so far.
func (r *rig) settle() {
	r.t.Helper()
	prm, _ := protocol.DecodeParams("agent.view.get", []byte(`{}`))
	if _, err := r.system.Root.RequestFuture(r.agents, &Request{Call: &kit.Call{Method: "agent.view.get", Params: prm}}, 5*time.Second).Result(); err != nil {
		r.t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the stand-in logs what was sent before the answer
}

// lastShown is the newest Shown the session got for term.
func (r *rig) lastShown(term string) *Shown {
	var out *Shown
	for _, m := range r.seen.all() {
		if sh, ok := m.(*Shown); ok && sh.TermID == term {
			out = sh
		}
	}
	if out == nil {
		r.t.Fatalf("the session got no Shown for %s", term)
	}
	return out
}

// The seen rule: a turn that ends while its tab is on screen is idle; one
// that ends elsewhere is done until its tab is focused.
func TestSeenRule(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t2")
	r.screen("term_1", "claude", "working")
	r.screen("term_2", "claude", "working")
	r.screen("term_1", "claude", "idle")
	r.screen("term_2", "claude", "idle")
	r.settle()
	if st := r.lastShown("term_1").Status; st != protocol.StatusIdle {
		t.Fatalf("turn ended on screen: %s, want idle", st)
	}
	done := r.lastShown("term_2")
	if done.Status != protocol.StatusDone {
		t.Fatalf("turn ended off screen: %s, want done", done.Status)
	}
	r.place("w1:t2", "w1:t1", "w1:t2")
	r.settle()
	seen := r.lastShown("term_2")
	if seen.Status != protocol.StatusIdle || seen.StateSeq <= done.StateSeq {
		t.Fatalf("after its tab was focused: %s (seq %d after %d), want idle with a newer seq", seen.Status, seen.StateSeq, done.StateSeq)
	}
	// An agent that appears idle has finished nothing yet.
	r.place("w1:t1", "w1:t1", "w1:t2", "w1:t2")
	r.screen("term_3", "codex", "idle")
	r.settle()
	if st := r.lastShown("term_3").Status; st != protocol.StatusIdle {
		t.Fatalf("an agent that appeared idle: %s, want idle", st)
	}
}

// The session hears of a change before the caller gets its answer, and
// before the bus gets the event: whoever reacts to either and asks the
// session finds the change there.
func TestShownGoesBeforeAnswersAndEvents(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1")
	r.screen("term_1", "claude", "working")
	r.call("pane.report_agent", "term_1", `{"pane_id":"w1:p1","source":"herdr:opencode","agent":"claude","state":"blocked"}`)
	r.settle()
	msgs := r.seen.all()
	shown, event, answer := -1, -1, -1
	for i, m := range msgs {
		switch m := m.(type) {
		case *Shown:
			if m.Status == protocol.StatusBlocked && shown < 0 {
				shown = i
			}
		case *events.Publish:
			if ev, ok := m.Data.(protocol.PaneAgentStatusChangedEvent); ok && ev.AgentStatus == protocol.StatusBlocked && event < 0 {
				event = i
			}
		case *kit.Reply:
			answer = i
		}
	}
	if shown < 0 || event < 0 || answer < 0 || !(shown < event && event < answer) {
		t.Fatalf("order: Shown %d, event %d, answer %d; want all three, in that order", shown, event, answer)
	}
}

// A wait on a pane that closes ends with agent_not_running; a wait whose
// status comes is rendered by the session.
func TestWaitEndsWhenThePaneCloses(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t1")
	r.screen("term_1", "claude", "working")
	r.screen("term_2", "claude", "working")
	r.call("agent.wait", "term_1", `{"target":"w1:p1","until":["blocked"]}`)
	r.call("agent.wait", "term_2", `{"target":"w1:p2","until":["blocked"]}`)
	r.screen("term_2", "claude", "blocked")
	r.placeTerms("w1:t1", []string{"2"}, []string{"w1:t1"}) // term_1's pane closed
	r.settle()
	var closed, rendered bool
	for _, m := range r.seen.all() {
		switch m := m.(type) {
		case *kit.Reply:
			closed = closed || (m.Err != nil && protocol.AsError(m.Err).Code == protocol.CodeAgentNotRunning)
		case *Answer:
			rendered = rendered || (m.Render == RenderInfo && m.TermID == "term_2")
		}
	}
	if !closed || !rendered {
		t.Fatalf("closed pane's wait answered: %v; blocked pane's wait rendered: %v", closed, rendered)
	}
}

// A handler that panics answers internal_error to its caller; the actor
// keeps its state and answers the next call.
func TestPanicAnswersAndKeepsState(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1")
	r.screen("term_1", "claude", "working")
	saved := Registry
	Registry = Registry.With("test.panic", func(*Agents, actor.Context, *kit.Call, *rec) *kit.Reply { panic("a handler that breaks") })
	t.Cleanup(func() { Registry = saved })
	r.system.Root.RequestWithCustomSender(r.agents, &Request{Call: &kit.Call{Method: "test.panic"}, TermID: "term_1"}, r.caller)
	r.call("agent.rename", "term_1", `{"target":"w1:p1","name":"scout"}`)
	r.settle()
	var internal bool
	for _, m := range r.seen.all() {
		if rep, ok := m.(*kit.Reply); ok && rep.Err != nil && protocol.AsError(rep.Err).Code == protocol.CodeInternal {
			internal = true
		}
	}
	sh := r.lastShown("term_1")
	if !internal || sh.Name != "scout" || sh.Status != protocol.StatusWorking {
		t.Fatalf("internal_error answered: %v; after it: name %q, status %s (want scout, working)", internal, sh.Name, sh.Status)
	}
}

// Metadata with a TTL goes away when it expires, and the session hears so.
func TestMetadataExpires(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1")
	r.call("pane.report_metadata", "term_1", `{"pane_id":"w1:p1","source":"ci","title":"building","ttl_ms":50,"tokens":{"n":"1"}}`)
	r.settle()
	if sh := r.lastShown("term_1"); sh.Title == nil || *sh.Title != "building" || sh.Tokens["n"] != "1" {
		t.Fatalf("reported metadata not shown: %+v", sh)
	}
	time.Sleep(150 * time.Millisecond)
	r.settle()
	if sh := r.lastShown("term_1"); sh.Title != nil || len(sh.Tokens) != 0 {
		t.Fatalf("metadata still shown after its TTL: title %v tokens %v", sh.Title, sh.Tokens)
	}
}

// until finished: done, or idle after working since the wait began. A
// focused agent's turn ends idle, never done; an idle agent that does
// nothing does not finish.
func TestWaitUntilFinished(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t1", "w1:t2")
	r.screen("term_1", "claude", "idle")
	r.screen("term_2", "claude", "idle")
	r.screen("term_3", "claude", "working")
	r.settle()
	r.call("agent.wait", "term_1", `{"target":"w1:p1","until":["finished"]}`)
	r.call("agent.wait", "term_1", `{"target":"w1:p1","until":["done"]}`)
	r.call("agent.wait", "term_2", `{"target":"w1:p2","until":["finished"]}`)
	r.call("agent.wait", "term_3", `{"target":"w1:p3","until":["finished"]}`)
	r.settle()
	if n := answered(r); len(n) != 0 {
		t.Fatalf("waits answered before any turn: %v", n)
	}
	r.screen("term_1", "claude", "working")
	r.screen("term_1", "claude", "idle") // its tab is on screen: idle, not done
	r.screen("term_3", "claude", "idle") // off screen: done
	r.settle()
	if st := r.lastShown("term_1").Status; st != protocol.StatusIdle {
		t.Fatalf("focused turn ended %s, want idle", st)
	}
	got := answered(r)
	if got["term_1"] != 1 || got["term_3"] != 1 || got["term_2"] != 0 {
		t.Fatalf("answers per terminal %v: want term_1 once (finished; its done wait still waits), term_3 once, term_2 none", got)
	}
}

// answered counts the wait answers rendered per terminal.
func answered(r *rig) map[string]int {
	n := map[string]int{}
	for _, m := range r.seen.all() {
		if a, ok := m.(*Answer); ok && a.Render == RenderInfo {
			n[a.TermID]++
		}
	}
	return n
}

// completion_seq counts every finished turn: two turns ended off screen
// in a row stay done, and the counter says there were two. An agent's
// first turn counts too, though it appeared already working (started
// with a prompt), and a turn ended on screen counts though it is idle.
func TestCompletionSeqCountsEveryTurn(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t2")
	r.screen("term_2", "claude", "working") // appeared working: its first task
	r.screen("term_2", "claude", "idle")
	r.settle()
	first := r.lastShown("term_2")
	if first.Status != protocol.StatusDone || first.Completions != 1 {
		t.Fatalf("first task: %s with completion_seq %d, want done with 1", first.Status, first.Completions)
	}
	r.screen("term_2", "claude", "working")
	r.screen("term_2", "claude", "idle")
	r.settle()
	second := r.lastShown("term_2")
	if second.Status != protocol.StatusDone || second.Completions != 2 {
		t.Fatalf("second turn in a row: %s with completion_seq %d, want done with 2", second.Status, second.Completions)
	}
	if info := second.Info(protocol.PaneInfo{PaneID: "w1:p2", Agent: protocol.Ptr("claude")}); info.CompletionSeq != 2 {
		t.Fatalf("agent info completion_seq %d, want 2", info.CompletionSeq)
	}
	r.screen("term_1", "claude", "idle") // appeared idle: finished nothing
	r.settle()
	if n := r.lastShown("term_1").Completions; n != 0 {
		t.Fatalf("an agent that appeared idle: completion_seq %d, want 0", n)
	}
	r.screen("term_1", "claude", "blocked")
	r.screen("term_1", "claude", "idle") // on screen: idle, still a finished turn
	r.settle()
	if sh := r.lastShown("term_1"); sh.Status != protocol.StatusIdle || sh.Completions != 1 {
		t.Fatalf("turn ended on screen: %s with completion_seq %d, want idle with 1", sh.Status, sh.Completions)
	}
}

// A self-reported agent (hook authority for an agent the screen does not
// show) is cleared when the program it ran in gives the terminal back to
// the shell; a report made while the shell waits, and one the screen's own
// agent backs, are kept.
func TestSelfReportedAgentClearedWhenTheShellIsBack(t *testing.T) {
	r := newRig(t)
	r.place("w1:t1", "w1:t1", "w1:t1")
	job := func(term string, k pane.JobKind) {
		r.system.Root.Send(r.agents, &pane.Facts{TerminalID: term, Job: k})
	}
	job("term_1", pane.JobShell)
	job("term_2", pane.JobShell)
	r.call("pane.report_agent", "term_1", `{"pane_id":"w1:p1","source":"sandbox","agent":"mybot","state":"working"}`)
	r.call("pane.report_agent", "term_2", `{"pane_id":"w1:p2","source":"sandbox","agent":"mybot","state":"working"}`)
	job("term_1", pane.JobShell) // nothing ran: the report stays
	r.settle()
	if sh := r.lastShown("term_1"); sh.Agent != "mybot" || sh.Status != protocol.StatusWorking {
		t.Fatalf("reported on an idle shell: agent %q %s, want mybot working", sh.Agent, sh.Status)
	}
	job("term_1", pane.JobOther)
	r.settle()
	if sh := r.lastShown("term_1"); sh.Agent != "mybot" {
		t.Fatalf("while its program runs: agent %q, want mybot", sh.Agent)
	}
	job("term_1", pane.JobShell)
	r.settle()
	if sh := r.lastShown("term_1"); sh.Agent != "" || sh.Status != protocol.StatusUnknown {
		t.Fatalf("after its program exited: agent %q %s, want none, unknown", sh.Agent, sh.Status)
	}
	if sh := r.lastShown("term_2"); sh.Agent != "mybot" {
		t.Fatalf("the other pane's agent: %q, want mybot kept", sh.Agent)
	}
	var cleared bool
	for _, m := range r.seen.all() {
		if p, ok := m.(*events.Publish); ok {
			if ev, ok := p.Data.(protocol.PaneAgentDetectedEvent); ok && ev.PaneID == "w1:p1" && ev.Agent == nil {
				cleared = true
			}
		}
	}
	if !cleared {
		t.Fatal("no pane_agent_detected without an agent for w1:p1")
	}
	// The next run's report counts again.
	job("term_1", pane.JobOther)
	r.call("pane.report_agent", "term_1", `{"pane_id":"w1:p1","source":"sandbox","agent":"mybot","state":"idle"}`)
	r.settle()
	if sh := r.lastShown("term_1"); sh.Agent != "mybot" {
		t.Fatalf("a new run's report: agent %q, want mybot", sh.Agent)
	}
}
