package clients

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// When the client in front goes away, the one that was in front before it
// is told it is in front again (so it gives the panes its size back) and
// gets the toasts from then on; a client behind that goes away is forgotten.
func TestFrontGoneBringsThePreviousClientBack(t *testing.T) {
	system := actor.NewActorSystem()
	cfg := config.Default()
	cfg.UI.Toast.Delivery = config.ToastHerdr
	pid := system.Root.Spawn(Props(Options{Config: cfg}))
	spawn := func() (*recorder, *actor.PID) {
		rec := &recorder{}
		return rec, system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	}
	fronts := func(rec *recorder) int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n := 0
		for _, m := range rec.msgs {
			if p, ok := m.(*kit.Push); ok && p.Event == protocol.ClientFrontEvent {
				n++
			}
		}
		return n
	}
	wait := func(why string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", why)
			}
			time.Sleep(5 * time.Millisecond) // another actor's progress
		}
	}
	a, aPID := spawn()
	gone, gonePID := spawn()
	b, bPID := spawn()
	system.Root.Send(pid, &Foreground{PID: aPID, Cols: 94, Rows: 35})
	system.Root.Send(pid, &Foreground{PID: gonePID, Cols: 80, Rows: 20})
	system.Root.Send(pid, &Foreground{PID: bPID, Cols: 74, Rows: 29})
	system.Root.Send(pid, &Foreground{PID: bPID, Cols: 74, Rows: 29}) // resized again: still one in front
	// The clients leave after the actor has taken them in (a round trip
	// behind the Foregrounds), as clients do: they are watched while alive.
	if _, err := system.Root.RequestFuture(pid, &actor.Touch{}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if err := system.Root.StopFuture(gonePID).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := system.Root.StopFuture(bPID).Wait(); err != nil {
		t.Fatal(err)
	}
	wait("a to be told it is in front again", func() bool { return fronts(a) == 1 })
	if fronts(b) != 0 || fronts(gone) != 0 {
		t.Errorf("pushes to gone clients: b %d, the other %d", fronts(b), fronts(gone))
	}
	res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: "notification.show", Params: &protocol.NotificationShowParams{Title: "x"}}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*kit.Reply).Result.(protocol.NotificationShown); !got.Shown {
		t.Errorf("a toast after the front went: %+v (a should be in front)", got)
	}
	// a goes too: nobody is in front, nobody is told.
	if err := system.Root.StopFuture(aPID).Wait(); err != nil {
		t.Fatal(err)
	}
	res, err = system.Root.RequestFuture(pid, &kit.Call{ID: "t", Method: "notification.show", Params: &protocol.NotificationShowParams{Title: "y"}}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*kit.Reply).Result.(protocol.NotificationShown); got.Shown || got.Reason != protocol.NotifyNoClient {
		t.Errorf("with every client gone: %+v", got)
	}
}
