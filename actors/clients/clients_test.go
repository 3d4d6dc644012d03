package clients

import (
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// recorder is a stand-in client connection that keeps what it is sent.
type recorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *recorder) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *api.Toast, *api.WindowTitle:
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
	pid := system.Root.Spawn(Props(cfg))
	call := func(method, params string) any {
		t.Helper()
		prm, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(pid, &api.Call{ID: "t", Method: method, Params: prm}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*api.Reply).Result
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
	if got := show(); got.Shown || got.Reason != "rate_limited" {
		t.Fatalf("a second toast at once: %+v", got)
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
