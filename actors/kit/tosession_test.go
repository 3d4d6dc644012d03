package kit

import (
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// fakeReads routes pane.list (answered) and pane.read (to the owner's
// actor); behind makes the next routings wait for the session.
type fakeReads struct {
	mu     sync.Mutex
	owner  *actor.PID
	behind bool
	waits  []func()
}

func (f *fakeReads) Routes(m protocol.Method) bool {
	return m.Name == "pane.list" || m.Name == "pane.read" || m.Name == "pane.graphics.info"
}

func (f *fakeReads) Route(call *Call, m protocol.Method, o Owners) (Routed, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.behind {
		return Routed{}, false
	}
	return f.route(call), true
}

func (f *fakeReads) RouteNow(call *Call, m protocol.Method, o Owners) Routed {
	if call.Params == nil {
		panic("no params") // a routing that breaks
	}
	return f.route(call)
}

func (f *fakeReads) route(call *Call) Routed {
	if call.Method == "pane.list" {
		return Routed{Reply: OK()}
	}
	return Routed{To: f.owner, Msg: &PaneCall{Call: call, PaneID: "p"}}
}

func (f *fakeReads) AfterCaughtUp(fn func()) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.behind {
		return true
	}
	f.waits = append(f.waits, fn)
	return false
}

// catchUp is the session handling what it was behind on.
func (f *fakeReads) catchUp() {
	f.mu.Lock()
	f.behind = false
	waits := f.waits
	f.waits = nil
	f.mu.Unlock()
	for _, fn := range waits {
		fn()
	}
}

// An actor's call the read side routes never reaches the session: a read
// is answered from it, a pane's call goes to the pane (also once the
// session caught up); a write, a gated call whose gate is not known open,
// and every call without routes go to the session.
func TestSessionRoutes_ReadsAndOwnerCallsSkipTheSession(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	got := make(chan string, 16)
	stub := func(name string) *actor.PID {
		return system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch msg := ctx.Message().(type) {
			case *Call:
				got <- name + " " + msg.Method
				ctx.Respond(OK())
			case *PaneCall:
				got <- name + " " + msg.Call.Method
				ctx.Respond(OK())
			}
		}))
	}
	session, paneActor := stub("session"), stub("pane")
	reads := &fakeReads{owner: paneActor}
	routes := &SessionRoutes{Reads: reads}
	ask := func(r *SessionRoutes, method string, params protocol.Params) *Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch msg := ctx.Message().(type) {
			case *Call:
				r.Send(ctx, session, msg, ctx.Sender())
			}
		})), &Call{ID: "t", Method: method, Params: params}, 5*time.Second).Result()
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return res.(*Reply)
	}
	expect := func(want string) {
		t.Helper()
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("went to %q, want %q", g, want)
			}
		default:
			t.Fatalf("nothing took the call, want %q", want)
		}
	}

	if r := ask(routes, "pane.list", &protocol.PaneListParams{}); r.Err != nil {
		t.Fatalf("pane.list: %v", r.Err)
	}
	if len(got) != 0 {
		t.Fatalf("a read answered by the read side reached %q", <-got)
	}
	ask(routes, "pane.read", &protocol.PaneReadParams{PaneID: "p"})
	expect("pane pane.read")
	ask(routes, "pane.close", &protocol.PaneTarget{PaneID: "p"})
	expect("session pane.close")
	ask(routes, "pane.graphics.info", &protocol.PaneTarget{PaneID: "p"})
	expect("session pane.graphics.info")
	ask(nil, "pane.read", &protocol.PaneReadParams{PaneID: "p"})
	expect("session pane.read")

	// Behind: the call waits for the session to catch up, then goes to
	// the pane, not the session.
	reads.mu.Lock()
	reads.behind = true
	reads.mu.Unlock()
	done := make(chan *Reply, 1)
	go func() { done <- ask(routes, "pane.read", &protocol.PaneReadParams{PaneID: "p"}) }()
	for {
		reads.mu.Lock()
		n := len(reads.waits)
		reads.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if len(got) != 0 {
		t.Fatalf("a call went out while the session was behind: %q", <-got)
	}
	reads.catchUp()
	if r := <-done; r.Err != nil {
		t.Fatalf("pane.read after catching up: %v", r.Err)
	}
	expect("pane pane.read")

	// A routing that panics after the wait (outside any actor) answers
	// internal_error and leaves the process running.
	reads.mu.Lock()
	reads.behind = true
	reads.mu.Unlock()
	go func() { done <- ask(routes, "pane.read", nil) }()
	for {
		reads.mu.Lock()
		n := len(reads.waits)
		reads.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	reads.catchUp()
	if r := <-done; r.Err == nil || r.Err.(*protocol.Error).Code != protocol.CodeInternal {
		t.Fatalf("a panicking routing answered %+v, want %s", r, protocol.CodeInternal)
	}
}
