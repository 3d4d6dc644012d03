package clients

import (
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// recorder is a stand-in client connection that keeps what it is sent.
type recorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *recorder) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *kit.Toast, *kit.WindowTitle, *TakenOver, *kit.Push:
		r.mu.Lock()
		r.msgs = append(r.msgs, m)
		r.mu.Unlock()
	}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs)
}

func TestForegroundClientGetsToastsAndTitles(t *testing.T) {
	system := actor.NewActorSystem()
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastHerdr
	pid := system.Root.Spawn(Props(Options{Config: cfg}))
	call := func(method, params string) any {
		t.Helper()
		prm, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: method, Params: prm}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply).Result
	}
	show := func() protocol.NotificationShown {
		return call("notification.show", `{"title":"Done","body":"tests pass"}`).(protocol.NotificationShown)
	}
	if got := show(); got.Shown || got.Reason != "no_foreground_client" {
		t.Fatalf("without a client: %+v", got)
	}
	rec := &recorder{}
	client := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	system.Root.Send(pid, &Foreground{PID: client})
	if got := show(); !got.Shown || got.Reason != "shown" {
		t.Fatalf("with a client: %+v", got)
	}
	if got := show(); got.Shown || got.Reason != "busy" {
		t.Fatalf("a second toast while the first is on screen: %+v", got)
	}
	if title := call("client.window_title.set", `{"title":"build"}`).(protocol.ClientWindowTitle); !title.Changed || title.Reason != "set" {
		t.Fatalf("window title set: %+v", title)
	}
	if title := call("client.window_title.clear", `{}`).(protocol.ClientWindowTitle); !title.Changed || title.Reason != "cleared" {
		t.Fatalf("window title clear: %+v", title)
	}
	deadline := time.Now().Add(5 * time.Second)
	for rec.count() < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if rec.count() != 3 {
		t.Fatalf("client got %d messages, want a toast and two titles", rec.count())
	}
	// The client goes away: nobody to show toasts to.
	system.Root.Stop(client)
	time.Sleep(1100 * time.Millisecond)
	if got := show(); got.Reason != "no_foreground_client" {
		t.Fatalf("after the client left: %+v", got)
	}
	// Toasts turned off by a reloaded config: nothing is shown.
	off := config.Default()
	off.UI.Toast.Delivery = config.ToastOff
	system.Root.Send(pid, &SetConfig{Config: off})
	system.Root.Send(pid, &Foreground{PID: system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &recorder{} }))})
	if got := show(); got.Reason != "disabled" {
		t.Fatalf("with toasts off: %+v", got)
	}
}

func (r *recorder) last() any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.msgs) == 0 {
		return nil
	}
	return r.msgs[len(r.msgs)-1]
}

// spawnClients starts the actor with cfg and a recording client in front.
func spawnClients(t *testing.T, cfg config.Config) (call func(string, string) *kit.Reply, rec *recorder, client *actor.PID, system *actor.ActorSystem) {
	system = actor.NewActorSystem()
	pid := system.Root.Spawn(Props(Options{Config: cfg}))
	rec = &recorder{}
	client = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	system.Root.Send(pid, &Foreground{PID: client})
	call = func(method, params string) *kit.Reply {
		t.Helper()
		prm, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: method, Params: prm}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	return call, rec, client, system
}

func waitCount(t *testing.T, rec *recorder, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for rec.count() < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if rec.count() < n {
		t.Fatalf("client got %d messages, want %d", rec.count(), n)
	}
}

func TestToastPositionDefaultsToConfig(t *testing.T) {
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastHerdr
	cfg.UI.Toast.HerdrPosition = "top-left"
	call, rec, _, _ := spawnClients(t, cfg)
	call("notification.show", `{"title":"a"}`)
	waitCount(t, rec, 1)
	if got := rec.last().(*kit.Toast); got.Position != "top-left" {
		t.Fatalf("default position %q, want the configured top-left", got.Position)
	}
}

func TestToastPositionFromRequest(t *testing.T) {
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastHerdr
	call, rec, _, _ := spawnClients(t, cfg)
	call("notification.show", `{"title":"a","position":"bottom-left"}`)
	waitCount(t, rec, 1)
	if got := rec.last().(*kit.Toast); got.Position != "bottom-left" {
		t.Fatalf("position %q, want the request's bottom-left", got.Position)
	}
}

// Terminal delivery has no toast on screen to be busy with: only the rate
// limit applies, and no position is sent.
func TestTerminalDeliveryIsRateLimitedNotBusy(t *testing.T) {
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastTerminal
	call, rec, _, _ := spawnClients(t, cfg)
	if got := call("notification.show", `{"title":"a","position":"top-left"}`).Result.(protocol.NotificationShown); got.Reason != "shown" {
		t.Fatalf("first: %+v", got)
	}
	if got := call("notification.show", `{"title":"b"}`).Result.(protocol.NotificationShown); got.Reason != "rate_limited" {
		t.Fatalf("second at once: %+v", got)
	}
	waitCount(t, rec, 1)
	if got := rec.last().(*kit.Toast); got.Position != "" {
		t.Fatalf("terminal delivery got position %q", got.Position)
	}
}

// conn stands in for a connection: it sends calls as itself and keeps
// the replies and TakenOver notices it gets.
type conn struct {
	to      *actor.PID
	replies chan *kit.Reply
	taken   chan *TakenOver
}

func (c *conn) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *kit.Call:
		ctx.Request(c.to, m)
	case *kit.Reply:
		c.replies <- m
	case *TakenOver:
		c.taken <- m
	}
}

func TestTerminalClaimTakeoverAndRelease(t *testing.T) {
	system := actor.NewActorSystem()
	pid := system.Root.Spawn(Props(Options{Config: config.Default()}))
	newConn := func() (*conn, *actor.PID) {
		c := &conn{to: pid, replies: make(chan *kit.Reply, 4), taken: make(chan *TakenOver, 4)}
		return c, system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }))
	}
	claim := func(c *conn, cp *actor.PID, takeover bool) *kit.Reply {
		t.Helper()
		system.Root.Send(cp, &kit.Call{ID: "t", Method: "terminal.claim", Params: &protocol.TerminalClaimParams{TerminalID: "term_1", Takeover: takeover}})
		select {
		case r := <-c.replies:
			return r
		case <-time.After(5 * time.Second):
			t.Fatal("no answer to terminal.claim")
		}
		return nil
	}
	a, ap := newConn()
	if r := claim(a, ap, false); r.Err != nil || r.Result.(protocol.TerminalClaimed).TookOver {
		t.Fatalf("first claim: %+v", r)
	}
	if r := claim(a, ap, false); r.Err != nil {
		t.Fatalf("the owner claims again: %+v", r.Err)
	}
	b, bp := newConn()
	r := claim(b, bp, false)
	if pe, ok := r.Err.(*protocol.Error); !ok || pe.Code != "stream_conflict" {
		t.Fatalf("second controller without takeover: %+v", r.Err)
	}
	if r := claim(b, bp, true); r.Err != nil || !r.Result.(protocol.TerminalClaimed).TookOver {
		t.Fatalf("takeover: %+v", r)
	}
	select {
	case m := <-a.taken:
		if m.TerminalID != "term_1" {
			t.Fatalf("taken over notice names %q", m.TerminalID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the displaced controller was not told")
	}
	// The owner goes away: the terminal is free again.
	system.Root.Stop(bp)
	c, cp := newConn()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := claim(c, cp, false)
		if r.Err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("claim after the owner left: %v", r.Err)
		}
		time.Sleep(10 * time.Millisecond) // the Terminated notice is on its way
	}
}

// TestForegroundFromAClientAlreadyGone: a client that left before the
// actor took in its Foreground does not stay in front (its watch is
// answered with Terminated): the client in front before it comes back,
// and gets the next window title.
func TestForegroundFromAClientAlreadyGone(t *testing.T) {
	system := actor.NewActorSystem()
	pid := system.Root.Spawn(Props(Options{Config: config.Default()}))
	rec := &recorder{}
	system.Root.Send(pid, &Foreground{PID: system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))})
	gone := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &recorder{} }))
	if err := system.Root.StopFuture(gone).Wait(); err != nil {
		t.Fatal(err)
	}
	system.Root.Send(pid, &Foreground{PID: gone})
	prm, err := protocol.DecodeParams("client.window_title.set", []byte(`{"title":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: "client.window_title.set", Params: prm}, 5*time.Second).Result(); err != nil {
			t.Fatal(err)
		}
		if _, ok := rec.last().(*kit.WindowTitle); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("a client that had left stayed in front: the client before it got no title")
		}
	}
}
