package keeper

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/session/model"
)

// stubSession stands in for the session: a rename tells the keeper (once
// until it asks, as the session does), a SaveNow is answered with a
// topology of one workspace named as last renamed, and it sends that one
// last time as it stops.
type stubSession struct {
	keeper *actor.PID
	label  string
	saving bool
}

type rename struct{ label string }

func (s *stubSession) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.Send(s.keeper, &Attach{Session: ctx.Self()})
	case *rename:
		s.label = msg.label
		if !s.saving {
			s.saving = true
			ctx.Send(s.keeper, &Changed{})
		}
		if ctx.Sender() != nil {
			ctx.Respond(true) // applied
		}
	case *SaveNow:
		s.saving = false
		s.save(ctx)
	case *actor.Stopping:
		s.save(ctx)
	}
}

func (s *stubSession) save(ctx actor.Context) {
	id, label := "w1", s.label
	ctx.Send(s.keeper, &Save{Saved: &model.Saved{Version: model.SavedVersion, Workspaces: []model.SavedWorkspace{{ID: &id, CustomName: &label}}}})
}

// startKeeper starts a keeper of path and a stub session beside it.
func startKeeper(t *testing.T, path string) (system *actor.ActorSystem, k *Keeper, kpid, session *actor.PID) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	kpid = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { k = newKeeper(Options{SessionFile: path, Log: log}); return k }))
	session = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &stubSession{keeper: kpid} }))
	return system, k, kpid, session
}

// A storm of changes (a script creating hundreds of panes) is written as a
// few files, not one per change: a save waits saveDelay for the changes
// behind it, so there is at most one per saveDelay (plus the first and the
// last); and the last change is in the file.
func TestKeeper_AStormOfChangesIsAFewWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	system, k, _, session := startKeeper(t, path)
	const changes = 400
	start := time.Now()
	for i := range changes {
		system.Root.Send(session, &rename{label: "storm-" + string(rune('a'+i%26))})
		time.Sleep(50 * time.Microsecond) // a script's pace, not one burst
	}
	system.Root.Send(session, &rename{label: "last"})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) { // poll interval
		if b, _ := os.ReadFile(path); strings.Contains(string(b), `"custom_name": "last"`) {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(path)
			t.Fatalf("the last change never reached the file: %.2000s", b)
		}
	}
	elapsed := time.Since(start)
	written := k.file.written.Load() // the writer's counter: atomic
	bound := int64(elapsed/saveDelay) + 2
	t.Logf("%d changes in %v: %d files written (bound %d)", changes+1, elapsed.Round(time.Millisecond), written, bound)
	if written > bound || written >= changes/2 {
		t.Fatalf("%d changes wrote %d files in %v; the debounce allows %d", changes+1, written, elapsed, bound)
	}
}

// The server stops the session, then poisons the keeper: the session's
// last Save, told as it stopped, is on disk when the keeper has stopped,
// though no save was due yet (the change was made within saveDelay).
func TestKeeper_TheSessionsLastSaveIsWrittenBeforeTheKeeperStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	system, _, kpid, session := startKeeper(t, path)
	if _, err := system.Root.RequestFuture(session, &rename{label: "just before the stop"}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if err := system.Root.StopFuture(session).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := system.Root.PoisonFuture(kpid).Wait(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"custom_name": "just before the stop"`) {
		t.Fatalf("after the stop the file holds %q (%v)", b, err)
	}
}

// The sidebar state is not the session's: a UI handed by the clients
// actor is saved on its own (no change of the session behind it) and
// written into every save after, over the state restored at start.
func TestKeeper_TheSidebarStateIsSavedWithoutTheSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	system, _, kpid, session := startKeeper(t, path)
	if _, err := system.Root.RequestFuture(session, &rename{label: "first"}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	read := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) { // poll interval
			if b, _ := os.ReadFile(path); strings.Contains(string(b), want) {
				return
			}
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(path)
				t.Fatalf("the file never held %s: %.2000s", want, b)
			}
		}
	}
	read(`"sidebar_section_split": 0.4`) // unset, as Herdr writes it
	width := 33
	system.Root.Send(kpid, &UI{State: model.UIState{CollapsedSpaceKeys: []string{"/r/.git"}, Width: &width}})
	read(`"sidebar_width": 33`)
	if _, err := system.Root.RequestFuture(session, &rename{label: "second"}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	read(`"custom_name": "second"`)
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"/r/.git"`) || !strings.Contains(string(b), `"sidebar_width": 33`) {
		t.Fatalf("a save of the session's lost the sidebar state: %.2000s", b)
	}
}

// A sidebar change before the session attached (the clients actor answers
// during a long restore) is saved once it does, though nothing else
// changed.
func TestKeeper_ASidebarChangeBeforeTheSessionAttachesIsSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	kpid := system.Root.Spawn(Props(Options{SessionFile: path, Log: log}))
	width := 41
	system.Root.Send(kpid, &UI{State: model.UIState{Width: &width}})
	time.Sleep(2 * saveDelay) // the save comes due with no session to ask (not a timing assertion)
	system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &stubSession{keeper: kpid, label: "restored"} }))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) { // poll interval
		if b, _ := os.ReadFile(path); strings.Contains(string(b), `"sidebar_width": 41`) {
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(path)
			t.Fatalf("the sidebar change was never saved: %.2000s", b)
		}
	}
}
