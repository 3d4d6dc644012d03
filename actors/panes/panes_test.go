package panes

import (
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
)

// fakeSession spawns pane actors through a Spawner inside its own
// messages, as the session does, and keeps the Gone it is told.
type fakeSession struct {
	sp   *Spawner
	gone chan *Gone
}

type spawnPane struct {
	termID string
	props  *actor.Props
	tell   bool // tell the supervisor Started at once
}

func (f *fakeSession) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *spawnPane:
		pid, err := f.sp.Spawn(ctx, m.termID, m.props, func() {})
		if err != nil {
			ctx.Respond(err)
			return
		}
		if m.tell {
			ctx.Send(f.sp.Sup, &Started{PID: pid})
		}
		ctx.Respond(pid)
	case *Gone:
		f.gone <- m
	}
}

// fragile is a pane actor that panics when told "break", and counts its
// stops.
func fragile(stopped chan string) *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case string:
			if m == "break" {
				panic("broken on purpose")
			}
		case *actor.Stopped:
			stopped <- ctx.Self().Id
		}
	})
}

// TestSupervisor_OwnsThePaneActors drives the supervisor through a pane's
// life: the pane actors the session spawns in its own message are the
// supervisor's (their parent); one that fails is stopped and the session
// told Gone, also when it failed before its Started came; one the session
// stops is not reported; StopAll stops the rest and answers only once each
// has stopped.
func TestSupervisor_OwnsThePaneActors(t *testing.T) {
	system := actor.NewActorSystem()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	sup := system.Root.Spawn(Props(Options{Log: log}))
	f := &fakeSession{sp: &Spawner{Sup: sup}, gone: make(chan *Gone, 8)}
	session := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return f }))
	system.Root.Send(sup, &SetSession{PID: session})
	stopped := make(chan string, 8)
	spawn := func(termID string, tell bool) *actor.PID {
		t.Helper()
		res, err := system.Root.RequestFuture(session, &spawnPane{termID: termID, props: fragile(stopped), tell: tell}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		pid, ok := res.(*actor.PID)
		if !ok {
			t.Fatalf("spawn %s: %v", termID, res)
		}
		if want := sup.Id + "/" + termID; pid.Id != want {
			t.Fatalf("pane actor %s, want %s (under the supervisor)", pid.Id, want)
		}
		return pid
	}
	waitGone := func(termID string) {
		t.Helper()
		select {
		case g := <-f.gone:
			if g.TermID != termID {
				t.Fatalf("told gone %s, want %s", g.TermID, termID)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the session was never told %s is gone", termID)
		}
	}
	a := spawn("t_a", true)
	b := spawn("t_b", true)
	c := spawn("t_c", true)
	d := spawn("t_d", false)

	// A failing pane is stopped, not restarted, and the session told.
	system.Root.Send(a, "break")
	waitGone("t_a")
	// One that fails before the session's Started reaches the supervisor
	// is told once it does.
	system.Root.Send(d, "break")
	for got := ""; got != d.Id; {
		got = <-stopped
	}
	system.Root.Send(sup, &Started{PID: d})
	waitGone("t_d")

	// A pane the session stops on purpose is not reported.
	system.Root.Send(sup, &Stop{PID: b})
	res, err := system.Root.RequestFuture(sup, &StopAll{}, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.(*StoppedAll); !ok {
		t.Fatalf("StopAll answered %T", res)
	}
	// Every pane actor has stopped by the answer: c was stopped by StopAll.
	seen := map[string]bool{}
	for len(stopped) > 0 {
		seen[<-stopped] = true
	}
	if !seen[c.Id] {
		t.Fatalf("StopAll answered before %s stopped (seen %v)", c.Id, seen)
	}
	select {
	case g := <-f.gone:
		t.Fatalf("told gone %s, which was stopped on purpose", g.TermID)
	default:
	}
	// A pane committed once the stop is under way is stopped at once, and
	// nothing is told the session from then on.
	late := spawn("t_late", true)
	for got := ""; got != late.Id; {
		got = <-stopped
	}
	// Round trips: the supervisor has taken t_late's end once it answers
	// StopAll again, and the session anything sent before once it answers.
	if _, err := system.Root.RequestFuture(sup, &StopAll{}, 10*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	spawn("t_flush", false)
	select {
	case g := <-f.gone:
		t.Fatalf("told gone %s after StopAll", g.TermID)
	default:
	}
	// A spawn under a name taken fails with the pane's error, and ends the
	// terminal it was given.
	ended := false
	sp := &Spawner{Sup: sup}
	probe := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(string); ok {
			if _, err := sp.Spawn(ctx, "t_c2", fragile(stopped), func() {}); err != nil {
				ctx.Respond(err)
				return
			}
			_, err := sp.Spawn(ctx, "t_c2", fragile(stopped), func() { ended = true })
			ctx.Respond(err)
		}
	}))
	res, err = system.Root.RequestFuture(probe, "go", 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := res.(error); !ok || !strings.Contains(e.Error(), "start pane") || !ended {
		t.Fatalf("second spawn under one name: %v (terminal ended %v)", res, ended)
	}
}

// TestSupervisor_StopAllWaitsForAPaneClosedJustBefore: a pane the
// session closed (Stop) while it was still busy has not stopped yet when
// the server's StopAll comes; StopAll answers only once it has, so its
// terminal's hang-up is counted before the server awaits the processes
// left (a pane stopping after that raced the server's exit).
func TestSupervisor_StopAllWaitsForAPaneClosedJustBefore(t *testing.T) {
	system := actor.NewActorSystem()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	start := func() (sup, session *actor.PID, f *fakeSession) {
		sup = system.Root.Spawn(Props(Options{Log: log}))
		f = &fakeSession{sp: &Spawner{Sup: sup}, gone: make(chan *Gone, 8)}
		session = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return f }))
		system.Root.Send(sup, &SetSession{PID: session})
		return sup, session, f
	}
	sup, session, _ := start()
	release := make(chan struct{})
	var stoppedAt atomic.Bool
	busy := actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case string: // busy until released
			<-release
		case *actor.Stopped:
			stoppedAt.Store(true)
		}
	})
	res, err := system.Root.RequestFuture(session, &spawnPane{termID: "t_busy", props: busy, tell: true}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	pid := res.(*actor.PID)
	system.Root.Send(pid, "work")
	system.Root.Send(sup, &Stop{PID: pid})
	// The release comes late: an answer before it is an answer before
	// the pane stopped. (How late only decides whether the old fault
	// shows; a right answer waits for the release whenever it comes.)
	go func() { time.Sleep(100 * time.Millisecond); close(release) }()
	if _, err := system.Root.RequestFuture(sup, &StopAll{}, 10*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if !stoppedAt.Load() {
		t.Fatal("StopAll answered while a pane closed just before it was still running")
	}
	// A Stop for a pane that had already ended on its own leaves nothing
	// for StopAll to wait on.
	sup, session, f := start()
	res, err = system.Root.RequestFuture(session, &spawnPane{termID: "t_ended", props: fragile(make(chan string, 1)), tell: true}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	ended := res.(*actor.PID)
	system.Root.Send(ended, "break")
	<-f.gone
	system.Root.Send(sup, &Stop{PID: ended})
	if _, err := system.Root.RequestFuture(sup, &StopAll{}, 10*time.Second).Result(); err != nil {
		t.Fatalf("StopAll after a Stop of an ended pane: %v", err)
	}
}

// TestSpawner_PrepareAdoptsOnce gives a handed-off terminal to the first
// pane with its id only, and names the owner facts go to.
func TestSpawner_PrepareAdoptsOnce(t *testing.T) {
	owner := actor.NewPID("local", "session")
	sp := &Spawner{Owner: owner, Adopt: map[string]pane.Adoption{"t_1": {}}}
	if !sp.Adopting("t_1") || sp.Adopting("t_2") {
		t.Fatal("Adopting is wrong before the adoption")
	}
	first := sp.Prepare(pane.Spec{TerminalID: "t_1"})
	again := sp.Prepare(pane.Spec{TerminalID: "t_1"})
	if first.Adopt == nil || again.Adopt != nil || sp.Adopting("t_1") {
		t.Fatalf("adopted %v then %v", first.Adopt, again.Adopt)
	}
	if first.Owner != owner {
		t.Fatalf("owner %v", first.Owner)
	}
}
