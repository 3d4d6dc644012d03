package kit

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// said is a result that carries a word.
type said string

func (said) ResultType() string { return "said" }

// callerOwner answers "echo" twice (a second answer must be dropped) and
// keeps the sender of "hold" for the test to answer late, or never.
func callerOwner(system *actor.ActorSystem, held chan<- *actor.PID) *actor.PID {
	return system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*Call)
		if !ok {
			return
		}
		switch call.Method {
		case "echo":
			ctx.Respond(&Reply{Result: said(call.ID), For: call})
			ctx.Respond(&Reply{Result: said("again"), For: call})
		case "hold":
			held <- ctx.Sender()
		}
	}))
}

// runCaller spawns c under a parent that hands on what the caller sends
// it, and says when the caller has stopped: every answer comes before
// that, so the count is final then.
func runCaller(system *actor.ActorSystem, c *Caller) (answers <-chan *Answered, stopped <-chan struct{}) {
	got := make(chan *Answered, 4)
	done := make(chan struct{})
	system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *actor.Started:
			c.Spawn(ctx, nil)
		case *Answered:
			got <- msg
		case *actor.Terminated:
			close(done)
		}
	}))
	return got, done
}

func wait[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s never came", what)
	}
	var zero T
	return zero
}

func TestCaller_AnswersOnce(t *testing.T) {
	system := actor.NewActorSystem()
	held := make(chan *actor.PID, 1)
	owner := callerOwner(system, held)

	// The owner answers twice; the parent hears the first, tagged, once.
	var delivered atomic.Int32
	c := &Caller{Owner: owner, Call: &Call{ID: "c1", Method: "echo"}, Tag: "mine", Within: time.Hour}
	answers, stopped := runCaller(system, c)
	a := wait(t, "the answer", answers)
	if a.Tag != "mine" || a.Reply.Err != nil || a.Reply.Result != said("c1") {
		t.Fatalf("answer %+v (reply %+v), want tag mine and the first reply", a, a.Reply)
	}
	wait(t, "the caller's stop", stopped)
	if len(answers) != 0 {
		t.Fatalf("a second answer reached the parent: %+v", (<-answers).Reply)
	}

	// The same with Deliver: it runs on the caller, so the count is final
	// once the caller has stopped (its stop answers nothing more).
	c = &Caller{Owner: owner, Call: &Call{ID: "c2", Method: "echo"}, Within: time.Hour,
		Deliver: func(*Answered) { delivered.Add(1) }}
	answers, stopped = runCaller(system, c)
	wait(t, "the caller's stop", stopped)
	if n := delivered.Load(); n != 1 || len(answers) != 0 {
		t.Fatalf("delivered %d times, %d to the parent; want once, to Deliver", n, len(answers))
	}
}

func TestCaller_TimeoutAnswersOnceAndDropsTheLateReply(t *testing.T) {
	system := actor.NewActorSystem()
	held := make(chan *actor.PID, 1)
	owner := callerOwner(system, held)

	var delivered atomic.Int32
	var first atomic.Pointer[Answered]
	c := &Caller{Owner: owner, Call: &Call{ID: "c3", Method: "hold"}, Tag: 7, Within: 20 * time.Millisecond,
		Deliver: func(a *Answered) {
			if delivered.Add(1) == 1 {
				first.Store(a)
			}
		}}
	_, stopped := runCaller(system, c)
	sender := wait(t, "the call at the owner", held)
	wait(t, "the caller's stop after its timeout", stopped)
	// The owner answers now, after the timeout: nobody hears it.
	system.Root.Send(sender, &Reply{Result: said("late")})
	if n := delivered.Load(); n != 1 {
		t.Fatalf("delivered %d times, want once", n)
	}
	a := first.Load()
	if e, ok := a.Reply.Err.(*protocol.Error); a.Tag != 7 || !ok || e.Code != protocol.CodeTimeout {
		t.Fatalf("timeout answer %+v (reply %+v), want tag 7 and a %s error", a, a.Reply, protocol.CodeTimeout)
	}
}

func TestAsk(t *testing.T) {
	system := actor.NewActorSystem()
	held := make(chan *actor.PID, 1)
	owner := callerOwner(system, held)

	if r := Ask(system.Root, owner, nil, &Call{ID: "a1", Method: "echo"}, time.Hour, nil); r.Err != nil || r.Result != said("a1") {
		t.Fatalf("echo answered %+v", r)
	}
	r := Ask(system.Root, owner, nil, &Call{ID: "a2", Method: "hold"}, 20*time.Millisecond, nil)
	if e, ok := r.Err.(*protocol.Error); !ok || e.Code != protocol.CodeTimeout {
		t.Fatalf("an owner that never answers: %+v, want a %s error", r, protocol.CodeTimeout)
	}
	system.Root.Send(<-held, &Reply{Result: said("late")}) // dropped: the caller is gone

	// An owner that is gone answers at once, saying so.
	gone := callerOwner(system, held)
	if err := system.Root.StopFuture(gone).Wait(); err != nil {
		t.Fatal(err)
	}
	r = Ask(system.Root, gone, nil, &Call{ID: "a3", Method: "echo"}, time.Hour, nil)
	if e, ok := r.Err.(*protocol.Error); !ok || e.Code != protocol.CodeInternal {
		t.Fatalf("an owner that is gone: %+v, want %s", r, protocol.CodeInternal)
	}
}
