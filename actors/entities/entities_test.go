package entities

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// session stands in for the supervisor's parent: it starts the
// supervisor and passes on what the entity actors tell it.
type session struct {
	sup     chan *actor.PID
	changed chan any
	opts    Options // the supervisor's (zero: the real entity actors)
}

func (s *session) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		if s.opts.Log == nil {
			s.opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
		}
		s.sup <- ctx.Spawn(Props(s.opts))
	case *wsactor.Changed, *tabactor.Changed:
		s.changed <- m
	}
}

func start(t *testing.T) (*actor.ActorSystem, *actor.PID, chan any) {
	t.Helper()
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	s := &session{sup: make(chan *actor.PID, 1), changed: make(chan any, 8)}
	system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return s }))
	return system, <-s.sup, s.changed
}

func call(t *testing.T, system *actor.ActorSystem, sup *actor.PID, d *Deliver) *kit.Reply {
	t.Helper()
	res, err := system.Root.RequestFuture(sup, d, 5*time.Second).Result()
	if err != nil {
		t.Fatalf("%s to %s was never answered: %v", d.CarriedCall().Method, d.ID, err)
	}
	return res.(*kit.Reply)
}

// next is the next change the session was told.
func next(t *testing.T, changed chan any) any {
	t.Helper()
	select {
	case m := <-changed:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("the session was never told the entity's change")
		return nil
	}
}

func renameWorkspace(id, label string) *Deliver {
	return &Deliver{ID: id, Msg: &wsactor.Request{
		Call: &kit.Call{Method: "workspace.rename", Params: &protocol.WorkspaceRenameParams{WorkspaceID: id, Label: label}},
		Info: protocol.WorkspaceInfo{WorkspaceID: id},
	}}
}

// A call for an entity with no actor is answered internal_error naming it;
// one for a started actor is answered by it, and its change goes to the
// session (the supervisor's parent), not to the supervisor.
func TestDeliverReachesTheEntityAndItsChangeTheSession(t *testing.T) {
	system, sup, changed := start(t)
	r := call(t, system, sup, renameWorkspace("w1", "x"))
	if e := protocol.AsError(r.Err); e == nil || e.Code != protocol.CodeInternal || !strings.Contains(e.Message, "workspace w1 has no actor") {
		t.Fatalf("call before the actor started: %v", r.Err)
	}
	system.Root.Send(sup, &StartWorkspace{Seed: wsactor.Seed{ID: "w1", Auto: "repo"}})
	if r := call(t, system, sup, renameWorkspace("w1", "named")); r.Err != nil {
		t.Fatalf("rename: %v", r.Err)
	}
	if c, ok := next(t, changed).(*wsactor.Changed); !ok || c.ID != "w1" || c.Label != "named" || c.Rev != 1 {
		t.Fatalf("the session was told %#v", c)
	}
	system.Root.Send(sup, &Retire{ID: "w1"})
	r = call(t, system, sup, renameWorkspace("w1", "late"))
	if e := protocol.AsError(r.Err); e == nil || e.Code != protocol.CodeInternal {
		t.Fatalf("call after the actor was retired: %v", r.Err)
	}
}

// A tab's call goes to the tab's actor; a tab id the supervisor never
// started is refused naming a tab.
func TestDeliverToATab(t *testing.T) {
	system, sup, changed := start(t)
	rename := func(label string) *Deliver {
		return &Deliver{ID: "w1:t1", Msg: &tabactor.Request{
			Call: &kit.Call{Method: "tab.rename", Params: &protocol.TabRenameParams{TabID: "w1:t1", Label: label}},
		}}
	}
	if e := protocol.AsError(call(t, system, sup, rename("a")).Err); e == nil || !strings.Contains(e.Message, "tab w1:t1 has no actor") {
		t.Fatalf("call before the tab's actor started: %v", e)
	}
	system.Root.Send(sup, &StartTab{Seed: tabactor.Seed{ID: "w1:t1", Sizes: []tabactor.SizeRev{}}})
	if r := call(t, system, sup, rename("logs")); r.Err != nil {
		t.Fatalf("tab.rename: %v", r.Err)
	}
	if c, ok := next(t, changed).(*tabactor.Changed); !ok || c.Label != "logs" {
		t.Fatalf("the session was told %#v", c)
	}
}

// A Changed older than the record the supervisor holds (from an actor that
// failed after a newer one was taken), or not from the id's actor, is
// dropped; a newer one goes on to the session and becomes the record; the
// answer each carries reaches its caller either way, after it.
func TestChangedOlderThanTheRecordIsDropped(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	entity := make(chan *actor.PID, 1)
	relay := func(*kit.Reseed[wsactor.Seed]) *actor.Props { // tells its parent what the test hands it
		return actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *actor.Started:
				entity <- ctx.Self()
			case *wsactor.Changed:
				ctx.Request(ctx.Parent(), m)
			}
		})
	}
	s := &session{sup: make(chan *actor.PID, 1), changed: make(chan any, 8)}
	s.opts = Options{WorkspaceProps: relay, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return s }))
	sup := <-s.sup
	system.Root.Send(sup, &StartWorkspace{Seed: wsactor.Seed{ID: "w1"}})
	w1 := <-entity
	tell := func(from *actor.PID, rev uint64) {
		t.Helper()
		f := actor.NewFuture(system, 5*time.Second)
		c := &wsactor.Changed{ID: "w1", Rev: rev, Label: fmt.Sprint("rev", rev), Answer: kit.OK(), To: f.PID()}
		if from == nil {
			system.Root.RequestWithCustomSender(sup, c, actor.NewPID("nonhost", "stranger"))
		} else {
			system.Root.Send(from, c)
		}
		if _, err := f.Result(); err != nil {
			t.Fatalf("the answer of rev %d never came: %v", rev, err)
		}
	}
	tell(w1, 2)
	tell(w1, 1)   // older than the record: dropped
	tell(w1, 2)   // as old: dropped
	tell(nil, 10) // not from w1's actor: dropped
	tell(w1, 3)
	for _, want := range []uint64{2, 3} {
		if c, ok := next(t, s.changed).(*wsactor.Changed); !ok || c.Rev != want || c.Label != fmt.Sprint("rev", want) {
			t.Fatalf("the session was told %#v, want rev %d", c, want)
		}
	}
}
