package server

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// TestSupervision_StructuralActorResumesWithItsState: a structural actor
// (the clients actor here) whose handler panics answers that call
// internal_error and, resumed by the root, keeps its state: the client it
// had in front still gets the next toast.
func TestSupervision_StructuralActorResumesWithItsState(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	root, err := system.Root.SpawnNamed(rootProps(log), "server")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastHerdr
	pid, err := spawnChild(system, root, clients.Props(clients.Options{Config: cfg, StartPane: pane.NewRuntime().Start}), "clients")
	if err != nil {
		t.Fatal(err)
	}
	toasts := make(chan *kit.Toast, 4)
	front := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*kit.Toast); ok {
			toasts <- m
		}
	}))
	system.Root.Send(pid, &clients.Foreground{PID: front, Cols: 80, Rows: 24})
	ask := func(call *kit.Call) *kit.Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(pid, call, 2*time.Second).Result()
		if err != nil {
			t.Fatalf("%s: %v", call.Method, err)
		}
		return res.(*kit.Reply)
	}
	// terminal.claim without its params: the handler's type assertion panics.
	if e := protocol.AsError(ask(&kit.Call{Method: "terminal.claim"}).Err); e == nil || e.Code != protocol.CodeInternal {
		t.Fatalf("the call that broke the actor answered %v, want internal_error", e)
	}
	prm, err := protocol.DecodeParams("notification.show", []byte(`{"title":"after","body":"the panic"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(&kit.Call{Method: "notification.show", Params: prm}).Result.(protocol.NotificationShown); !got.Shown {
		t.Fatalf("after the panic: %+v (the foreground client was lost)", got)
	}
	select {
	case <-toasts:
	case <-time.After(2 * time.Second):
		t.Fatal("the foreground client got no toast after the panic")
	}
}
