package kit

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

type ping struct{ n int }

func TestTimers(t *testing.T) {
	system := actor.NewActorSystem()
	got := make(chan int, 10)
	var timers Timers
	pending := make(chan int, 10)
	pid := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case string:
			switch msg {
			case "arm":
				timers.After(ctx, 20*time.Millisecond, &ping{1})
				cancelled := timers.After(ctx, 20*time.Millisecond, &ping{2})
				timers.After(ctx, time.Hour, &ping{3})
				timers.Cancel(cancelled)
			case "stop":
				timers.StopAll()
			}
			pending <- timers.Pending()
		case *Fired:
			got <- timers.Fired(msg).(*ping).n
			pending <- timers.Pending()
		}
	}))
	system.Root.Send(pid, "arm")
	if n := <-pending; n != 2 {
		t.Fatalf("pending after arming 3 and cancelling 1 = %d", n)
	}
	select {
	case n := <-got:
		if n != 1 {
			t.Fatalf("fired %d, want 1 (2 was cancelled)", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the timer never fired")
	}
	if n := <-pending; n != 1 {
		t.Fatalf("pending after one fired = %d, want 1", n)
	}
	system.Root.Send(pid, "stop")
	if n := <-pending; n != 0 {
		t.Fatalf("pending after StopAll = %d", n)
	}
	// Read after the actor's answer: nothing pending holds nothing.
	if timers.pending != nil || timers.sched != nil {
		t.Fatal("no timer pending, and the map or the scheduler kept")
	}
	system.Root.Send(pid, "arm") // and timers work again after that
	if n := <-pending; n != 2 {
		t.Fatalf("pending after arming again = %d", n)
	}
	if n := <-got; n != 1 {
		t.Fatalf("fired %d after arming again, want 1", n)
	}
	<-pending
	system.Root.Send(pid, "stop")
	<-pending
	select {
	case n := <-got:
		t.Fatalf("timer %d fired after it was cancelled", n)
	case <-time.After(100 * time.Millisecond):
	}
}
