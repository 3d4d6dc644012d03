package panes

import (
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// A live handoff freezes the pane actors the supervisor has: those the
// session told it started, not one it was told to stop.
func TestSupervisor_ListsItsPanesForAHandoff(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	sup := system.Root.Spawn(Props(Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	quiet := actor.PropsFromFunc(func(actor.Context) {})
	a, b := system.Root.Spawn(quiet), system.Root.Spawn(quiet)
	system.Root.Send(sup, &Started{PID: a})
	system.Root.Send(sup, &Started{PID: b})
	system.Root.Send(sup, &Stop{PID: b})
	res, err := system.Root.RequestFuture(sup, &List{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	got := res.(*Listed).PIDs
	if len(got) != 1 || !got[0].Equal(a) || slices.ContainsFunc(got, b.Equal) {
		t.Fatalf("listed %v, want only %v", got, a)
	}
}
