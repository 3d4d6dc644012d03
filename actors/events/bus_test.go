package events

import (
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// probe is a subscriber that records what the bus sends it and acks only
// when told to.
type probe struct {
	got chan any
	ack bool
	bus *actor.PID
}

func (p *probe) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Batch:
		p.got <- m
		if p.ack {
			ctx.Send(p.bus, &Ack{Sub: ctx.Self()})
		}
	case *Lost, *kit.Reply, *AddMatcher:
		p.got <- m
	}
}

func setup(t *testing.T, history int) (*actor.ActorSystem, *actor.PID) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	return system, system.Root.Spawn(Props(history, log))
}

func spawnProbe(system *actor.ActorSystem, bus *actor.PID, ack bool) (*actor.PID, chan any) {
	got := make(chan any, 100)
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &probe{got: got, ack: ack, bus: bus} }))
	return pid, got
}

func next(t *testing.T, got chan any) any {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("nothing arrived")
		return nil
	}
}

func rename(i int) *Publish {
	label := string(rune('a' + i%26))
	return &Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: label}, Fields: Fields{WorkspaceID: "w1", Label: label}}
}

// A subscriber that never acknowledges falls out of an 8-event history and
// is told so; one that acknowledges gets every event in order.
func TestBus_SlowSubscriberIsCut(t *testing.T) {
	system, bus := setup(t, 8)
	slow, slowGot := spawnProbe(system, bus, false)
	fast, fastGot := spawnProbe(system, bus, true)
	for _, pid := range []*actor.PID{slow, fast} {
		system.Root.Send(bus, &Subscribe{Sub: pid, Kinds: []string{"workspace_renamed"}})
	}
	// The fast subscriber keeps up: each event is read before the next.
	for i := 0; i < 20; i++ {
		system.Root.Send(bus, rename(i))
		if b, ok := next(t, fastGot).(*Batch); !ok || len(b.Lines) != 1 {
			t.Fatalf("event %d: fast subscriber got %+v", i, b)
		}
	}
	if _, ok := next(t, slowGot).(*Batch); !ok {
		t.Fatal("slow subscriber did not get its first batch")
	}
	// The slow one acknowledges late: by now its cursor is out of history.
	system.Root.Send(bus, &Ack{Sub: slow})
	if _, ok := next(t, slowGot).(*Lost); !ok {
		t.Fatal("slow subscriber was not told it lost events")
	}
}

func TestBus_WaitAndTimeout(t *testing.T) {
	system, bus := setup(t, 8)
	w, got := spawnProbe(system, bus, false)
	system.Root.Send(bus, &Wait{Sub: w, Match: Match{Kind: "workspace_renamed", Label: "c"}})
	system.Root.Send(bus, rename(0))
	system.Root.Send(bus, rename(2))
	r := next(t, got).(*kit.Reply)
	if r.Err != nil || r.Result.ResultType() != "wait_matched" {
		t.Fatalf("wait reply = %+v", r)
	}
	system.Root.Send(bus, &Wait{Sub: w, Match: Match{Kind: "tab_closed"}, Timeout: 20 * time.Millisecond})
	r = next(t, got).(*kit.Reply)
	if protocol.AsError(r.Err).Code != protocol.CodeTimeout {
		t.Fatalf("timeout reply = %+v", r)
	}
}

func TestMatch_Matches(t *testing.T) {
	f := Fields{WorkspaceID: "w1", TabID: "w1:t1", TermID: "term_1", Label: "x", AgentStatus: "idle", Revision: 5}
	cases := []struct {
		m    Match
		want bool
	}{
		{Match{Kind: "k"}, true},
		{Match{Kind: "other"}, false},
		{Match{Kind: "k", WorkspaceID: "w2"}, false},
		{Match{Kind: "k", TermID: "term_1", AgentStatus: "idle"}, true},
		{Match{Kind: "k", MinRevision: 6}, false},
		{Match{Kind: "k", MinRevision: 5, Label: "x"}, true},
	}
	for _, c := range cases {
		if got := c.m.Matches("k", f); got != c.want {
			t.Errorf("%+v.Matches = %v, want %v", c.m, got, c.want)
		}
	}
}

// exportBus asks bus for its Carried.
func exportBus(t *testing.T, system *actor.ActorSystem, bus *actor.PID) *Carried {
	t.Helper()
	res, err := system.Root.RequestFuture(bus, &Export{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*Carried)
}

// seqs are the sequence numbers of a batch's lines.
func seqs(t *testing.T, b *Batch) []uint64 {
	t.Helper()
	var out []uint64
	for _, l := range b.Lines {
		var ev struct {
			Seq uint64 `json:"seq"`
		}
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("line %s: %v", l, err)
		}
		out = append(out, ev.Seq)
	}
	return out
}

// A bus started from another's export holds its history and numbers on:
// a subscriber resuming from before the export gets the old events, then
// the new ones, in one unbroken sequence.
func TestBus_CarriedHistoryResumes(t *testing.T) {
	system, old := setup(t, 8)
	for i := range 5 {
		system.Root.Send(old, rename(i))
	}
	c := exportBus(t, system, old)
	if c.NextSeq != 6 || len(c.Events) != 5 {
		t.Fatalf("exported %d events, next %d; want 5, next 6", len(c.Events), c.NextSeq)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bus := system.Root.Spawn(PropsCarried(8, log, c))
	system.Root.Send(bus, rename(5))
	pid, got := spawnProbe(system, bus, true)
	since := uint64(2)
	system.Root.Send(bus, &Subscribe{Sub: pid, Kinds: []string{"workspace_renamed"}, Since: &since})
	var all []uint64
	for len(all) < 4 {
		b, ok := next(t, got).(*Batch)
		if !ok {
			t.Fatalf("resumed subscriber got %T, want a batch", b)
		}
		all = append(all, seqs(t, b)...)
	}
	if !slices.Equal(all, []uint64{3, 4, 5, 6}) {
		t.Fatalf("resumed from 2: seqs %v, want [3 4 5 6]", all)
	}
}

// Between Export and Resume the bus numbers nothing: what is published
// then gets its numbers after Resume, so none is given twice.
func TestBus_ExportHoldsUntilResume(t *testing.T) {
	system, bus := setup(t, 8)
	pid, got := spawnProbe(system, bus, true)
	system.Root.Send(bus, &Subscribe{Sub: pid, Kinds: []string{"workspace_renamed"}})
	system.Root.Send(bus, rename(0))
	if s := seqs(t, next(t, got).(*Batch)); !slices.Equal(s, []uint64{1}) {
		t.Fatalf("first event: %v", s)
	}
	if c := exportBus(t, system, bus); c.NextSeq != 2 {
		t.Fatalf("exported next seq %d, want 2", c.NextSeq)
	}
	system.Root.Send(bus, rename(1))
	select {
	case m := <-got:
		t.Fatalf("an exported bus handed out %#v", m)
	case <-time.After(100 * time.Millisecond): // nothing may come
	}
	if c := exportBus(t, system, bus); c.NextSeq != 2 {
		t.Fatalf("next seq moved to %d while exported", c.NextSeq)
	}
	system.Root.Send(bus, &Resume{})
	if s := seqs(t, next(t, got).(*Batch)); !slices.Equal(s, []uint64{2}) {
		t.Fatalf("after resume: %v, want [2]", s)
	}
}

// A carried history with a gap keeps only the run that ends at NextSeq:
// a subscriber from before the gap is lost, not given a hole.
func TestBus_CarriedGapIsLost(t *testing.T) {
	system, old := setup(t, 8)
	for i := range 4 {
		system.Root.Send(old, rename(i))
	}
	c := exportBus(t, system, old)
	c.Events = slices.Delete(c.Events, 1, 2) // seq 2 gone
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bus := system.Root.Spawn(PropsCarried(8, log, c))
	pid, got := spawnProbe(system, bus, true)
	since := uint64(1)
	system.Root.Send(bus, &Subscribe{Sub: pid, Kinds: []string{"workspace_renamed"}, Since: &since})
	if m, ok := next(t, got).(*Lost); !ok {
		t.Fatalf("resumed across a gap: %#v, want Lost", m)
	}
	pid, got = spawnProbe(system, bus, true)
	since = 2
	system.Root.Send(bus, &Subscribe{Sub: pid, Kinds: []string{"workspace_renamed"}, Since: &since})
	if s := seqs(t, next(t, got).(*Batch)); !slices.Equal(s, []uint64{3, 4}) {
		t.Fatalf("resumed after the gap: %v, want [3 4]", s)
	}
}

// A wait the present state already matches is answered at once, from
// Present, before anything is published; one it does not match waits for
// the event.
func TestBus_WaitPresentAnswersAtOnce(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	present := func(m Match) protocol.EventData {
		if m.Kind == "workspace_renamed" && m.Label == "now" {
			return protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "now"}
		}
		return nil
	}
	bus := system.Root.Spawn(PropsPresent(8, log, &Carried{NextSeq: 1}, present))
	w, got := spawnProbe(system, bus, false)
	system.Root.Send(bus, &Wait{Sub: w, Match: Match{Kind: "workspace_renamed", WorkspaceID: "w1", Label: "now"}})
	r := next(t, got).(*kit.Reply)
	if r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"now"`) {
		t.Fatalf("present wait reply = %+v", r)
	}
	system.Root.Send(bus, &Wait{Sub: w, Match: Match{Kind: "workspace_renamed", Label: "c"}})
	select {
	case m := <-got:
		t.Fatalf("a wait the present state does not match was answered: %+v", m)
	default:
	}
	system.Root.Send(bus, rename(2))
	if r := next(t, got).(*kit.Reply); r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"c"`) {
		t.Fatalf("wait reply = %+v", r)
	}
}

// fakeReads is a read side whose catching up the test controls.
type fakeReads struct {
	caught chan bool // AfterCaughtUp's answer, one per call
	later  chan func()
	pane   *actor.PID // pane "p1"'s actor (subscribe_test.go)
}

func (f *fakeReads) Present(m Match) protocol.EventData {
	if m.Kind == "workspace_renamed" && m.WorkspaceID == "w1" && m.Label == "now" {
		return protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "now"}
	}
	return nil
}

func (f *fakeReads) ResolveWait(m *protocol.EventMatch) (Match, error) {
	if m.WorkspaceID == nil || (*m.WorkspaceID != "1" && *m.WorkspaceID != "w1") {
		return Match{}, protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace not found")
	}
	return Match{Kind: m.Event, WorkspaceID: "w1", Label: *m.Label}, nil
}

func (f *fakeReads) AfterCaughtUp(fn func()) bool {
	if <-f.caught {
		return true
	}
	f.later <- fn
	return false
}

// The bus answers events.wait itself: ids resolved by the read side (a
// position becomes w1), a state already shown answered at once, an
// unknown id its not-found code, and a wait that came before the session
// caught up resolved only once it has.
func TestBus_EventsWaitCall(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	reads := &fakeReads{caught: make(chan bool, 4), later: make(chan func(), 4)}
	bus := system.Root.Spawn(PropsRead(8, log, &Carried{NextSeq: 1}, reads))
	w, got := spawnProbe(system, bus, false)
	wait := func(ws, label string) {
		system.Root.RequestWithCustomSender(bus, &kit.Call{ID: "1", Method: "events.wait", Params: &protocol.EventsWaitParams{
			MatchEvent: &protocol.EventMatch{Event: "workspace_renamed", WorkspaceID: &ws, Label: &label}}}, w)
	}
	reads.caught <- true
	wait("1", "now")
	if r := next(t, got).(*kit.Reply); r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"now"`) {
		t.Fatalf("present wait reply = %+v", r)
	}
	reads.caught <- true
	wait("w9", "now")
	if r := next(t, got).(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeWorkspaceNotFound {
		t.Fatalf("unknown workspace: %+v", r)
	}
	reads.caught <- false
	wait("1", "later")
	var fn func()
	select {
	case fn = <-reads.later:
	case <-time.After(5 * time.Second):
		t.Fatal("the bus did not wait for the read side")
	}
	fn()
	system.Root.Send(bus, &Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "later"}, Fields: Fields{WorkspaceID: "w1", Label: "later"}})
	if r := next(t, got).(*kit.Reply); r.Err != nil || !strings.Contains(string(r.Result.(protocol.WaitMatched).Event), `"later"`) {
		t.Fatalf("wait reply = %+v", r)
	}
}
