package events

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// fakeConn stands in for a connection: it records what its sub or wait
// sends it and, when auto is set, acknowledges each batch to its sender.
type fakeConn struct {
	got  chan any
	auto bool
}

func (f *fakeConn) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Batch:
		f.got <- m
		if f.auto {
			ctx.Send(m.From, &Ack{Sub: ctx.Self()})
		}
	case *Lost, *Failed, *kit.Reply:
		f.got <- m
	}
}

func spawnConn(system *actor.ActorSystem, auto bool) (*actor.PID, chan any) {
	got := make(chan any, 1000)
	return system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &fakeConn{got: got, auto: auto} })), got
}

// drain waits until the bus has handed out everything told to it so far
// and pid has handled it: the bus's own flush is behind the first touch,
// so a second one comes after it.
func drain(t *testing.T, system *actor.ActorSystem, pids ...*actor.PID) {
	t.Helper()
	for _, pid := range pids {
		if _, err := system.Root.RequestFuture(pid, &actor.Touch{}, 5*time.Second).Result(); err != nil {
			t.Fatalf("touch %s: %v", pid.Id, err)
		}
	}
}

// quiet fails if anything is waiting in got.
func quiet(t *testing.T, got chan any, why string) {
	t.Helper()
	select {
	case m := <-got:
		t.Fatalf("%s: got %#v", why, m)
	default:
	}
}

func batchOf(t *testing.T, got chan any) *Batch {
	t.Helper()
	m := next(t, got)
	b, ok := m.(*Batch)
	if !ok {
		t.Fatalf("got %#v, want a batch", m)
	}
	return b
}

func status(term, st string) *Publish {
	return &Publish{Data: protocol.PaneAgentStatusChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", AgentStatus: protocol.AgentStatus(st)},
		Fields: Fields{TermID: term, AgentStatus: st}}
}

func tabRename(label string) *Publish {
	return &Publish{Data: protocol.TabRenamedEvent{TabID: "w1:t1", WorkspaceID: "w1", Label: label}, Fields: Fields{WorkspaceID: "w1", TabID: "w1:t1", Label: label}}
}

// TestSub_Filter: a sub sends only the kinds and statuses it was asked
// for, statuses in their dotted envelope, volatile events only for its
// terminals and matchers, in publication order.
func TestSub_Filter(t *testing.T) {
	system, bus := setup(t, 8)
	conn, got := spawnConn(system, true)
	system.Root.Send(bus, &Subscribe{Sub: conn, Kinds: []string{"workspace_renamed"},
		Statuses: []StatusFilter{{TermID: "term_1", Status: "idle"}}, Scrolls: []string{"term_1"}, Matchers: []uint64{7}})
	system.Root.Send(bus, tabRename("no"))
	system.Root.Send(bus, status("term_1", "working"))
	system.Root.Send(bus, rename(0))
	system.Root.Send(bus, status("term_2", "idle"))
	system.Root.Send(bus, status("term_1", "idle"))
	var lines []string
	for len(lines) < 2 {
		for _, l := range batchOf(t, got).Lines {
			lines = append(lines, string(l))
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[0], `"event":"workspace_renamed"`) ||
		!strings.HasPrefix(lines[1], `{"event":"pane.agent_status_changed"`) || !strings.Contains(lines[1], `"idle"`) {
		t.Fatalf("lines = %q", lines)
	}
	scroll := func(term string) *PublishVolatile {
		return &PublishVolatile{Kind: protocol.SubScrollChanged, Fields: Fields{TermID: term}, Data: map[string]string{"term": term}}
	}
	system.Root.Send(bus, scroll("term_2"))
	system.Root.Send(bus, &PublishVolatile{Kind: protocol.SubOutputMatched, Matcher: 8, Data: map[string]string{"m": "8"}})
	system.Root.Send(bus, &PublishVolatile{Kind: "pane_output_changed", Fields: Fields{TermID: "term_1"},
		Data: protocol.PaneOutputChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", Revision: 3}})
	system.Root.Send(bus, scroll("term_1"))
	system.Root.Send(bus, &PublishVolatile{Kind: protocol.SubOutputMatched, Matcher: 7, Data: map[string]string{"m": "7"}})
	var vol []string
	for len(vol) < 2 {
		for _, l := range batchOf(t, got).Lines {
			vol = append(vol, string(l))
		}
	}
	if len(vol) != 2 || vol[0] != `{"event":"pane.scroll_changed","data":{"term":"term_1"}}` || vol[1] != `{"event":"pane.output_matched","data":{"m":"7"}}` {
		t.Fatalf("volatile lines = %q", vol)
	}
	drain(t, system, bus, bus)
	quiet(t, got, "after the wanted events")
}

// TestSub_OneBatchInFlight: until the connection acknowledges, its sub
// sends nothing more; then everything that queued up comes in one batch.
func TestSub_OneBatchInFlight(t *testing.T) {
	system, bus := setup(t, 64)
	conn, got := spawnConn(system, false)
	system.Root.Send(bus, &Subscribe{Sub: conn, Kinds: []string{"workspace_renamed"}})
	system.Root.Send(bus, rename(0))
	first := batchOf(t, got)
	for i := 1; i <= 10; i++ {
		system.Root.Send(bus, rename(i))
	}
	drain(t, system, bus, bus, first.From)
	quiet(t, got, "a second batch while the first is in flight")
	system.Root.Send(first.From, &Ack{Sub: conn})
	if b := batchOf(t, got); len(b.Lines) != 10 || !strings.Contains(string(b.Lines[9]), `"seq":11`) {
		t.Fatalf("second batch has %d lines, last %s", len(b.Lines), b.Lines[len(b.Lines)-1])
	}
}

// TestSub_EventsLost: a sub is lost when the records after its cursor
// outgrow the history, and only then: events it does not want pass its
// cursor while no batch is in flight. A lost sub tells its connection once
// the batch in flight is written, and stops.
func TestSub_EventsLost(t *testing.T) {
	system, bus := setup(t, 8)
	conn, got := spawnConn(system, false)
	system.Root.Send(bus, &Subscribe{Sub: conn, Kinds: []string{"tab_renamed"}})
	for i := 0; i < 50; i++ {
		system.Root.Send(bus, rename(i)) // not wanted: the cursor moves on
	}
	system.Root.Send(bus, tabRename("a"))
	first := batchOf(t, got)
	for i := 0; i < 8; i++ {
		system.Root.Send(bus, rename(i)) // exactly the history: still recoverable
	}
	drain(t, system, bus, bus, first.From)
	quiet(t, got, "while the first batch is in flight")
	system.Root.Send(bus, rename(9)) // one more than the history holds
	drain(t, system, bus, bus, first.From)
	quiet(t, got, "Lost before the batch in flight is written")
	system.Root.Send(first.From, &Ack{Sub: conn})
	if _, ok := next(t, got).(*Lost); !ok {
		t.Fatal("the sub was not lost")
	}
	if _, err := system.Root.RequestFuture(first.From, &actor.Touch{}, 200*time.Millisecond).Result(); err == nil {
		t.Fatal("a lost sub is still running")
	}
}

// TestSub_SinceSeq: a sub spawned with since_seq gets the retained
// history after it, and is lost at once when that history is gone.
func TestSub_SinceSeq(t *testing.T) {
	system, bus := setup(t, 8)
	for i := 0; i < 5; i++ {
		system.Root.Send(bus, rename(i))
	}
	conn, got := spawnConn(system, true)
	since := uint64(2)
	system.Root.Send(bus, &Subscribe{Sub: conn, Kinds: []string{"workspace_renamed"}, Since: &since})
	system.Root.Send(bus, rename(5))
	var seqs []string
	for len(seqs) < 4 {
		for _, l := range batchOf(t, got).Lines {
			seqs = append(seqs, string(l[strings.LastIndex(string(l), `"seq"`):]))
		}
	}
	if strings.Join(seqs, " ") != `"seq":3} "seq":4} "seq":5} "seq":6}` {
		t.Fatalf("resumed with %q", seqs)
	}
	for i := 0; i < 20; i++ {
		system.Root.Send(bus, rename(i))
	}
	late, lateGot := spawnConn(system, true)
	system.Root.Send(bus, &Subscribe{Sub: late, Kinds: []string{"workspace_renamed"}, Since: &since})
	if m, ok := next(t, lateGot).(*Lost); !ok {
		t.Fatalf("a resume from before the history got %#v", m)
	}
}

// TestWait_Timeout: a wait times out after its timeout even while events
// it does not want keep arriving, and it matches nothing published before
// it was spawned, even what the bus had not handed out yet.
func TestWait_Timeout(t *testing.T) {
	system, bus := setup(t, 8)
	conn, got := spawnConn(system, false)
	system.Root.Send(bus, rename(2)) // label "c", published just before the wait
	start := time.Now()
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "workspace_renamed", Label: "c"}, Timeout: 100 * time.Millisecond})
	var r *kit.Reply
	for r == nil {
		system.Root.Send(bus, tabRename("busy"))
		select {
		case m := <-got:
			r = m.(*kit.Reply)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the wait never timed out")
		}
	}
	if protocol.AsError(r.Err).Code != protocol.CodeTimeout || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("after %v: %+v", time.Since(start), r)
	}
	// Volatile output changes reach waits.
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", MinRevision: 3}})
	system.Root.Send(bus, &PublishVolatile{Kind: "pane_output_changed", Fields: Fields{TermID: "term_1", Revision: 3},
		Data: protocol.PaneOutputChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", Revision: 3}})
	if r := next(t, got).(*kit.Reply); r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"revision":3`) {
		t.Fatalf("output wait = %+v", r)
	}
}

// A wait for an output revision its pane has already passed is answered
// at once from the terminal's newest output event (the session's revision
// can lag it); one past it waits; a closed pane's is forgotten.
func TestWait_OutputAlreadyPassed(t *testing.T) {
	system, bus := setup(t, 8)
	conn, got := spawnConn(system, false)
	system.Root.Send(bus, &PublishVolatile{Kind: "pane_output_changed", Fields: Fields{TermID: "term_1", Revision: 5},
		Data: protocol.PaneOutputChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", Revision: 5}})
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", MinRevision: 5}})
	if r := next(t, got).(*kit.Reply); r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"revision":5`) ||
		!strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"w1:p1"`) {
		t.Fatalf("a passed revision = %+v", r)
	}
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", MinRevision: 6}, Timeout: 50 * time.Millisecond})
	if r := next(t, got).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeTimeout {
		t.Fatalf("a revision not reached = %+v, want a timeout", r)
	}
	system.Root.Send(bus, &Publish{Data: protocol.PaneRefEvent{Kind: "pane_closed", PaneID: "w1:p1", WorkspaceID: "w1"}, Fields: Fields{TermID: "term_1"}})
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", MinRevision: 5}, Timeout: 50 * time.Millisecond})
	if r := next(t, got).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeTimeout {
		t.Fatalf("after pane_closed = %+v, want a timeout", r)
	}
}

// TestWait_OutputKeptOnlyWhenItCanBeMadeAgain: the bus keeps a terminal's
// last output change as its ids, not the event; one whose data the ids
// cannot make again is not kept, and the older one kept before it is
// dropped, so a wait is never answered with a stale revision.
func TestWait_OutputKeptOnlyWhenItCanBeMadeAgain(t *testing.T) {
	system, bus := setup(t, 8)
	conn, got := spawnConn(system, false)
	f := Fields{WorkspaceID: "w1", TabID: "w1:t1", TermID: "term_1", Label: "build", Revision: 5}
	system.Root.Send(bus, &PublishVolatile{Kind: "pane_output_changed", Fields: f,
		Data: protocol.PaneOutputChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", Revision: 5}})
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TabID: "w1:t1", TermID: "term_1", Label: "build", MinRevision: 4}})
	r := next(t, got).(*kit.Reply)
	if r.Err != nil {
		t.Fatalf("a passed revision = %+v", r)
	}
	var ev struct {
		Event string `json:"event"`
		Data  protocol.PaneOutputChangedEvent
	}
	if err := protocol.Unmarshal(r.Result.(protocol.WaitMatched).Event, &ev); err != nil || ev.Data.PaneID != "w1:p1" || ev.Data.WorkspaceID != "w1" || ev.Data.Revision != 5 {
		t.Fatalf("answer %s (%v): want pane w1:p1 of w1 at revision 5", r.Result.(protocol.WaitMatched).Event, err)
	}
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", Label: "other", MinRevision: 4}, Timeout: 50 * time.Millisecond})
	if r := next(t, got).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeTimeout {
		t.Fatalf("a wait for another label = %+v, want a timeout", r)
	}
	f.Revision = 6
	system.Root.Send(bus, &PublishVolatile{Kind: "pane_output_changed", Fields: f, Data: map[string]int{"revision": 7}})
	system.Root.Send(bus, &Wait{Sub: conn, Match: Match{Kind: "pane_output_changed", TermID: "term_1", MinRevision: 5}, Timeout: 50 * time.Millisecond})
	if r := next(t, got).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeTimeout {
		t.Fatalf("after an output change not kept = %+v, want a timeout", r)
	}
}

// TestSub_PanicStopsOnlyThatSub: a sub that panics is stopped, not
// restarted; its connection is told Failed, while the other subscriber and
// the bus's history carry on. A wait that panics answers internal_error.
func TestSub_PanicStopsOnlyThatSub(t *testing.T) {
	system, bus := setup(t, 64)
	bad, badGot := spawnConn(system, true)
	good, goodGot := spawnConn(system, true)
	for _, c := range []*actor.PID{bad, good} {
		system.Root.Send(bus, &Subscribe{Sub: c, Kinds: []string{"workspace_renamed"}})
	}
	system.Root.Send(bus, rename(0))
	badSub := batchOf(t, badGot).From
	batchOf(t, goodGot)

	system.Root.Send(badSub, &published{recs: []*record{nil}}) // a poisoned message: nil dereference
	if f, ok := next(t, badGot).(*Failed); !ok || !strings.Contains(f.Reason, "nil pointer") {
		t.Fatalf("the failed sub's connection got %#v", f)
	}
	if _, err := system.Root.RequestFuture(badSub, &actor.Touch{}, 200*time.Millisecond).Result(); err == nil {
		t.Fatal("the failed sub is still running (restarted?)")
	}
	for i := 1; i <= 3; i++ {
		system.Root.Send(bus, rename(i))
		if b := batchOf(t, goodGot); !strings.Contains(string(b.Lines[len(b.Lines)-1]), `"label":"`+string(rune('a'+i))+`"`) {
			t.Fatalf("the other subscriber got %q", b.Lines)
		}
	}
	drain(t, system, bus, bus)
	quiet(t, badGot, "the failed sub's connection after the failure")

	// The bus kept its history: a new subscription resumes from it.
	since := uint64(0)
	again, againGot := spawnConn(system, true)
	system.Root.Send(bus, &Subscribe{Sub: again, Kinds: []string{"workspace_renamed"}, Since: &since})
	if b := batchOf(t, againGot); len(b.Lines) != 4 {
		t.Fatalf("resubscribed with %d lines", len(b.Lines))
	}

	// A wait that fails answers its request with internal_error.
	system, bus = setup(t, 8)
	waitConn, waitGot := spawnConn(system, false)
	system.Root.Send(bus, &Wait{Sub: waitConn, Match: Match{Kind: "tab_closed"}})
	drain(t, system, bus)
	wait := actor.NewPID(system.Address(), bus.Id+"/wait1") // the bus's first child
	system.Root.Send(wait, &published{recs: []*record{nil}})
	if r := next(t, waitGot).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeInternal {
		t.Fatalf("the failed wait answered %+v", r)
	}
}

// TestSub_RemoteRecordsOnlyForFleetSubscribers: another machine's events
// reach a sub that asked for the fleet, of its kinds, and every machine
// state change; a local sub and a local wait never see them.
func TestSub_RemoteRecordsOnlyForFleetSubscribers(t *testing.T) {
	system, bus := setup(t, 16)
	local, localGot := spawnConn(system, true)
	fleet, fleetGot := spawnConn(system, true)
	waiter, waitGot := spawnConn(system, false)
	kinds := []string{"pane_agent_status_changed"}
	system.Root.Send(bus, &Subscribe{Sub: local, Kinds: kinds})
	system.Root.Send(bus, &Subscribe{Sub: fleet, Kinds: kinds, Fleet: true})
	system.Root.Send(bus, &Wait{Sub: waiter, Match: Match{Kind: "pane_agent_status_changed"}})
	remote := func(kind, body string) *Publish {
		return &Publish{Data: protocol.RemoteEvent{Kind: kind, Data: []byte(body)}, Fields: Fields{Machine: "m-1"}}
	}
	system.Root.Send(bus, remote("pane_agent_status_changed", `{"pane_id":"build/w1:p1","agent_status":"done"}`))
	system.Root.Send(bus, remote("tab_renamed", `{"tab_id":"build/w1:t1"}`))
	system.Root.Send(bus, &Publish{Data: protocol.MachineStateChanged{Machine: protocol.MachineRef{ID: "m-1", Label: "build"}, State: "offline", Previous: "online"}, Fields: Fields{Machine: "m-1"}})
	var lines []string
	for len(lines) < 2 {
		for _, l := range batchOf(t, fleetGot).Lines {
			lines = append(lines, string(l))
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[0], `{"event":"pane_agent_status_changed","data":{"type":"pane_agent_status_changed","pane_id":"build/w1:p1"`) ||
		!strings.Contains(lines[1], `"machine_state_changed"`) {
		t.Fatalf("fleet lines = %q", lines)
	}
	drain(t, system, bus, bus)
	quiet(t, fleetGot, "a remote kind the fleet sub did not ask for")
	quiet(t, localGot, "remote events for a local subscriber")
	quiet(t, waitGot, "a remote event answering a local wait")
	// The local wait still answers the local event.
	system.Root.Send(bus, status("term_1", "idle"))
	if r := next(t, waitGot).(*kit.Reply); r.Err != nil {
		t.Fatalf("local wait = %+v", r)
	}
}

// TestSub_RemotePaneStatusFilter: a fleet sub that named another
// machine's pane gets that pane's status changes (of the status asked
// for) in the dotted envelope; another machine's pane of the same id, a
// local terminal with an empty id, and a sub without the fleet get none.
func TestSub_RemotePaneStatusFilter(t *testing.T) {
	system, bus := setup(t, 16)
	fleet, fleetGot := spawnConn(system, true)
	local, localGot := spawnConn(system, true)
	filter := []StatusFilter{{Machine: "m-1", PaneID: "w1:p1", Status: "working"}}
	system.Root.Send(bus, &Subscribe{Sub: fleet, Statuses: filter, Fleet: true})
	system.Root.Send(bus, &Subscribe{Sub: local, Statuses: filter})
	remote := func(machine, pane, st string) *Publish {
		body := `{"pane_id":"build/` + pane + `","agent_status":"` + st + `"}`
		return &Publish{Data: protocol.RemoteEvent{Kind: "pane_agent_status_changed", Data: []byte(body)},
			Fields: Fields{Machine: machine, PaneID: pane, AgentStatus: st}}
	}
	system.Root.Send(bus, remote("m-1", "w1:p1", "idle"))
	system.Root.Send(bus, remote("m-2", "w1:p1", "working"))
	system.Root.Send(bus, remote("m-1", "w1:p2", "working"))
	system.Root.Send(bus, status("", "working"))
	system.Root.Send(bus, remote("m-1", "w1:p1", "working"))
	b := batchOf(t, fleetGot)
	if len(b.Lines) != 1 || string(b.Lines[0]) != `{"event":"pane.agent_status_changed","data":{"pane_id":"build/w1:p1","agent_status":"working"}}` {
		t.Fatalf("fleet lines = %q", b.Lines)
	}
	drain(t, system, bus, bus)
	quiet(t, fleetGot, "a status change the sub did not name")
	quiet(t, localGot, "a remote status change for a sub without the fleet")
}

// TestSub_StalledIsDropped: a connection's sub whose batch stays
// unwritten for the bus's stall timeout tells its connection Lost (with
// the timeout) and stops; one that writes its batches is kept however
// long it waits between them.
func TestSub_StalledIsDropped(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	const stall = 300 * time.Millisecond
	bus := system.Root.Spawn(PropsStall(64, log, &Carried{NextSeq: 1}, nil, stall))

	stuck, stuckGot := spawnConn(system, false)
	system.Root.Send(bus, &Subscribe{Sub: stuck, Kinds: []string{"workspace_renamed"}})
	writing, writingGot := spawnConn(system, true)
	system.Root.Send(bus, &Subscribe{Sub: writing, Kinds: []string{"workspace_renamed"}})
	system.Root.Send(bus, rename(0))
	first := batchOf(t, stuckGot)
	batchOf(t, writingGot)
	m, ok := next(t, stuckGot).(*Lost)
	if !ok || m.Stalled != stall {
		t.Fatalf("the stalled sub's connection got %#v, want Lost{Stalled: %v}", m, stall)
	}
	if _, err := system.Root.RequestFuture(first.From, &actor.Touch{}, 200*time.Millisecond).Result(); err == nil {
		t.Fatal("a stalled sub is still running")
	}
	time.Sleep(2 * stall) // longer than the timeout between two written batches
	system.Root.Send(bus, rename(1))
	if b := batchOf(t, writingGot); len(b.Lines) != 1 {
		t.Fatalf("the writing sub got %d lines", len(b.Lines))
	}
	quiet(t, writingGot, "the writing sub after its batches")
}
