package kit

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// counter panics on a "boom" call, outside any handler guard of its own,
// and otherwise answers how many calls it has served: its state.
type counter struct{ served int }

func (c *counter) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Call:
		if msg.Method == "boom" {
			panic("broken on purpose")
		}
		c.served++
		ctx.Respond(Done(protocol.OK{}))
	case *wrapped:
		panic("broken on purpose, by a forwarded call")
	case *countQuery:
		ctx.Respond(c.served)
	}
}

type countQuery struct{}

// wrapped carries a call the way a forwarded request does.
type wrapped struct{ call *Call }

func (w *wrapped) CarriedCall() *Call { return w.call }

// inbox is an actor that keeps every reply it is sent.
type inbox struct {
	mu      sync.Mutex
	replies []*Reply
}

func (b *inbox) props() *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*Reply); ok {
			b.mu.Lock()
			b.replies = append(b.replies, r)
			b.mu.Unlock()
		}
	})
}

func (b *inbox) all() []*Reply {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*Reply(nil), b.replies...)
}

func quietSystem(t *testing.T, w io.Writer) (*actor.ActorSystem, *slog.Logger) {
	log := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	return system, log
}

// guardForms are the guard as a props option (Guarded, GuardedKeep) and as
// a wrapper of the actor (GuardActor): each passes the same tests.
var guardForms = []struct {
	name  string
	props func(log *slog.Logger, keep bool) *actor.Props
}{
	{"option", func(log *slog.Logger, keep bool) *actor.Props {
		opt := Guarded(log)
		if keep {
			opt = GuardedKeep(log)
		}
		return actor.PropsFromProducer(func() actor.Actor { return &counter{} }, opt)
	}},
	{"wrapper", func(log *slog.Logger, keep bool) *actor.Props {
		return actor.PropsFromProducer(func() actor.Actor { return GuardActor(&counter{}, log, keep) })
	}},
}

// A panic outside any handler guard, while the actor holds a call (bare
// or carried by another message), answers that call internal_error
// exactly once, names the method in the log with the actor and the
// stack, and the supervisor's resume keeps the actor serving with its
// state.
func TestGuarded_PanicAnswersTheCallOnceAndTheActorGoesOn(t *testing.T) {
	for _, form := range guardForms {
		t.Run(form.name, func(t *testing.T) { testGuardedPanic(t, form.props) })
	}
}

func testGuardedPanic(t *testing.T, props func(*slog.Logger, bool) *actor.Props) {
	var logged syncBuffer
	system, log := quietSystem(t, &logged)
	resume := actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.ResumeDirective })
	pid := system.Root.WithGuardian(resume).Spawn(props(log, false))
	box := &inbox{}
	caller := system.Root.Spawn(box.props())

	system.Root.RequestWithCustomSender(pid, &Call{ID: "1", Method: "ok"}, caller)
	system.Root.RequestWithCustomSender(pid, &Call{ID: "2", Method: "boom"}, caller)
	system.Root.RequestWithCustomSender(pid, &wrapped{call: &Call{ID: "3", Method: "boom"}}, caller)
	system.Root.RequestWithCustomSender(pid, &Call{ID: "4", Method: "ok"}, caller)

	res, err := system.Root.RequestFuture(pid, &countQuery{}, 2*time.Second).Result()
	if err != nil {
		t.Fatalf("the actor no longer answers after the panics: %v", err)
	}
	if res.(int) != 2 {
		t.Fatalf("served %v calls, want 2 (its state was lost)", res)
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(box.all()) < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // room for a wrong second answer to show
	replies := box.all()
	var internal []string
	for _, r := range replies {
		if e := protocol.AsError(r.Err); r.Err != nil && e.Code == protocol.CodeInternal {
			if r.For == nil {
				t.Fatalf("internal_error without the call it answers: %v", e)
			}
			internal = append(internal, r.For.ID)
			if !strings.Contains(e.Message, "boom") {
				t.Fatalf("internal_error does not name the method: %q", e.Message)
			}
		}
	}
	if len(replies) != 4 || strings.Join(internal, ",") != "2,3" {
		t.Fatalf("%d replies, internal_error for calls %v; want 4 replies, internal_error once each for 2 and 3", len(replies), internal)
	}
	out := logged.String()
	for _, want := range []string{"actor panicked", "method=boom", "call_id=3", "message=*kit.wrapped", "actor=" + pid.Id, "guard_test.go"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the panic's log lacks %q:\n%s", want, out)
		}
	}
}

// GuardedKeep answers the call and keeps the actor whatever its
// supervisor would do (here the default, restart, which loses state).
func TestGuardedKeep_KeepsTheActorOnACallsPanic(t *testing.T) {
	for _, form := range guardForms {
		t.Run(form.name, func(t *testing.T) { testGuardedKeep(t, form.props) })
	}
}

func testGuardedKeep(t *testing.T, props func(*slog.Logger, bool) *actor.Props) {
	system, log := quietSystem(t, io.Discard)
	pid := system.Root.Spawn(props(log, true))
	ask := func(msg any) any {
		t.Helper()
		res, err := system.Root.RequestFuture(pid, msg, 2*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ask(&Call{Method: "ok"})
	if e := protocol.AsError(ask(&Call{Method: "boom"}).(*Reply).Err); e == nil || e.Code != protocol.CodeInternal {
		t.Fatalf("the broken call answered %v, want internal_error", e)
	}
	if n := ask(&countQuery{}).(int); n != 1 {
		t.Fatalf("served %d after the panic, want 1: the actor was not kept", n)
	}
}

// A message nobody handles is logged with the actor and its type; a stray
// call is answered internal_error, not left waiting; lifecycle messages
// are not reported.
func TestUnhandled_IsLoggedAndAStrayCallAnswered(t *testing.T) {
	var logged syncBuffer
	system, log := quietSystem(t, &logged)
	pid := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *countQuery:
			ctx.Respond(0)
		default:
			Unhandled(ctx, msg, log)
		}
	}, Guarded(log)))
	system.Root.Send(pid, &struct{ Stray int }{1})
	res, err := system.Root.RequestFuture(pid, &Call{ID: "9", Method: "nobody.handles"}, 2*time.Second).Result()
	if err != nil {
		t.Fatalf("a stray call was left unanswered: %v", err)
	}
	if e := protocol.AsError(res.(*Reply).Err); e == nil || e.Code != protocol.CodeInternal || !strings.Contains(e.Message, "nobody.handles") {
		t.Fatalf("a stray call answered %v, want internal_error naming its method", e)
	}
	out := logged.String()
	for _, want := range []string{"unhandled message", "Stray int", "actor=" + pid.Id, "unhandled call", "method=nobody.handles"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "actor.Started") {
		t.Fatalf("a lifecycle message was reported as unhandled:\n%s", out)
	}
}

// syncBuffer is a log sink the actors and the test share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
