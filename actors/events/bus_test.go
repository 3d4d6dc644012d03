package events

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
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
	case *Lost, *api.Reply:
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
	r := next(t, got).(*api.Reply)
	if r.Err != nil || r.Result.ResultType() != "wait_matched" {
		t.Fatalf("wait reply = %+v", r)
	}
	system.Root.Send(bus, &Wait{Sub: w, Match: Match{Kind: "tab_closed"}, Timeout: 20 * time.Millisecond})
	r = next(t, got).(*api.Reply)
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
