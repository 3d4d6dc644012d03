package session

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// A burst of changes tells the keeper once that the file changed, until
// the keeper asks back (the number of panes, for the trim, it reads from
// the published View);
// the topology the session then hands it shares nothing with the model,
// which goes on changing on the session's goroutine while the keeper
// marshals it on its own.
func TestPersist_TheKeeperIsToldOnceAndGetsATopologyOfItsOwn(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	told := make(chan any, 1000)
	stub := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *keeper.Attach, *keeper.Changed, *keeper.Save:
			told <- msg
		}
	}))
	h := spawnSession(t, system, Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane,
		Cols: 120, Rows: 40, SessionFile: "unused: the stub keeper writes nothing", Keeper: stub})
	next := func() any {
		t.Helper()
		select {
		case m := <-told:
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("the session told the keeper nothing")
			return nil
		}
	}
	if a, ok := next().(*keeper.Attach); !ok || a.Session == nil || a.KeepOriginal {
		t.Fatalf("first message %#v, want an Attach", a)
	}
	const creates = 20
	for range creates {
		if r := h.call("workspace.create", `{"label":"burst"}`); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	h.call("workspace.rename", `{"workspace_id":"w1","label":"renamed"}`)
	h.call("tab.rename", `{"tab_id":"w1:t1","label":"renamed"}`)
	h.call("pane.rename", `{"pane_id":"w1:p1","label":"renamed"}`)
	saves := 0
	for len(told) > 0 {
		if _, ok := next().(*keeper.Changed); !ok {
			t.Fatal("the session told the keeper something other than a change")
		}
		saves++
	}
	if saves != 1 {
		t.Fatalf("%d workspaces and three renames told the keeper %d times of a change to save (want 1)", creates, saves)
	}

	system.Root.Send(h.session, &keeper.SaveNow{})
	save, ok := next().(*keeper.Save)
	if !ok || len(save.Saved.Workspaces) != creates || *save.Saved.Workspaces[0].CustomName != "renamed" {
		t.Fatalf("the session answered SaveNow with %#v", save)
	}
	h.call("workspace.rename", `{"workspace_id":"w1","label":"later"}`)
	h.call("tab.rename", `{"tab_id":"w1:t1","label":"later"}`)
	h.call("pane.rename", `{"pane_id":"w1:p1","label":"later"}`)
	if c, ok := next().(*keeper.Changed); !ok {
		t.Fatalf("after the save the next change told %#v, want a change to save", c)
	}
	w := save.Saved.Workspaces[0]
	if *w.CustomName != "renamed" || *w.Tabs[0].CustomName != "renamed" || *w.Tabs[0].Panes["1"].Label != "renamed" {
		t.Fatalf("the topology handed to the keeper changed with the model: workspace %q, tab %v, pane %v", *w.CustomName, w.Tabs[0].CustomName, w.Tabs[0].Panes["1"].Label)
	}
}

// A pane's output costs the session nothing towards the keeper: with
// lines kept, a storm of facts with new screens tells the keeper nothing
// (it finds the panes whose record changed in the published View), and
// the Save it asks for names each pane's lines key.
func TestPersist_OutputTellsTheKeeperNothing(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	told := make(chan any, 1000)
	stub := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		case *probe: // after everything sent to it before
			ctx.Respond(msg)
		default:
			told <- msg
		}
	}))
	// caughtUp returns once the stub took what the session sent it before
	// the session's last answer.
	caughtUp := func() {
		t.Helper()
		if _, err := system.Root.RequestFuture(stub, &probe{}, 5*time.Second).Result(); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "session.json")
	lines := pane.NewLinesWriter(keeper.LinesDir(file), 100, 1<<20, 1<<20, log)
	t.Cleanup(func() { lines.Close(time.Second) })
	h := spawnSession(t, system, Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane,
		Cols: 120, Rows: 40, SessionFile: file, Keeper: stub, Lines: lines})
	h.call("workspace.create", `{"label":"busy"}`)
	h.sync()
	caughtUp()
	for len(told) > 0 {
		<-told // the Attach, and the change the workspace made
	}
	term := h.snapshot().Panes[0].TerminalID
	for rev := uint64(1); rev <= 50; rev++ {
		system.Root.Send(h.session, &pane.Facts{TerminalID: term, Revision: rev, Scroll: protocol.PaneScrollInfo{ViewportRows: 38, MaxOffsetFromBottom: rev}})
	}
	h.sync()
	caughtUp()
	if len(told) > 0 {
		t.Fatalf("50 screens of output told the keeper %T", <-told)
	}
	system.Root.Send(h.session, &keeper.SaveNow{})
	select {
	case m := <-told:
		save, ok := m.(*keeper.Save)
		if !ok || save.Keys[term] == "" || save.Keys[term] != save.Saved.Workspaces[0].Tabs[0].Panes["1"].History {
			t.Fatalf("SaveNow answered %#v, want a Save naming %s's lines key", m, term)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SaveNow was not answered")
	}
}
