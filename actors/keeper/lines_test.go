package keeper

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// askedPanes counts the SaveLines each stand-in pane got.
type askedPanes struct {
	mu    sync.Mutex
	asked map[string]int
}

func (a *askedPanes) props(term string) *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*pane.SaveLines); ok {
			a.mu.Lock()
			a.asked[term]++
			a.mu.Unlock()
		}
	})
}

func (a *askedPanes) count(term string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.asked[term]
}

// The keeper asks the panes for their lines from the session's published
// View, never the session: a pane the last save named is asked once its
// record is new or changed, and not again while it stays the same; a pane
// no save has named yet is not asked (its key would be dropped); the
// keys a save names are the lines writer's live set, so the file of a key
// no save names any more goes.
func TestKeeper_LinesAreAskedFromTheView(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session.json")
	linesDir := LinesDir(path)
	if err := os.MkdirAll(linesDir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := pane.KeptBase(linesDir, "closed") + ".lines"
	if err := os.WriteFile(stale, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	lines := pane.NewLinesWriter(linesDir, 100, 1<<20, 1<<20, log)
	t.Cleanup(func() { lines.Close(time.Second) })
	reads := view.NewReadSide()
	asked := &askedPanes{asked: map[string]int{}}
	rec := func(term string, pid *actor.PID, title string) *view.Pane {
		return &view.Pane{Info: protocol.PaneInfo{PaneID: "w1:" + term, TerminalID: term, Title: &title}, PID: pid}
	}
	pids := map[string]*actor.PID{}
	for _, term := range []string{"a", "b", "late"} {
		pids[term] = system.Root.Spawn(asked.props(term))
	}
	v := &view.View{Panes: make([]atomic.Pointer[view.Pane], 3)}
	v.Panes[0].Store(rec("a", pids["a"], "1"))
	v.Panes[1].Store(rec("b", pids["b"], "1"))
	v.Panes[2].Store(rec("late", pids["late"], "1"))
	v.Index()
	reads.Publish(v)

	kpid := system.Root.Spawn(Props(Options{SessionFile: path, Lines: lines, Log: log, Reads: reads}))
	keys := map[string]string{"a": "key-a", "b": "key-b"} // "late" started after the save
	system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case *actor.Started:
			ctx.Send(kpid, &Attach{Session: ctx.Self()})
			ctx.Send(kpid, &Changed{})
		case *SaveNow:
			ctx.Send(kpid, &Save{Saved: &model.Saved{Version: model.SavedVersion}, Keys: keys})
		}
	}))
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) { // poll interval
			if time.Now().After(deadline) {
				t.Fatalf("%s: never (a %d, b %d, late %d)", what, asked.count("a"), asked.count("b"), asked.count("late"))
			}
		}
	}
	wait("both named panes asked", func() bool { return asked.count("a") == 1 && asked.count("b") == 1 })
	wait("the closed pane's file removed", func() bool { _, err := os.Stat(stale); return os.IsNotExist(err) })
	v.Panes[1].Store(rec("b", pids["b"], "2")) // b's facts changed, a's did not
	wait("the changed pane asked again", func() bool { return asked.count("b") == 2 })
	v.Panes[1].Store(rec("b", pids["b"], "3"))
	wait("the changed pane asked a third time", func() bool { return asked.count("b") == 3 })
	if n, late := asked.count("a"), asked.count("late"); n != 1 || late != 0 {
		t.Fatalf("the unchanged pane was asked %d times (want 1), the one no save named %d (want 0)", n, late)
	}
}

// BenchmarkKeeperLook_200Panes: what one look at the View costs the keeper
// (every linesDelay, on its own goroutine) with 200 panes, one of which
// changed since the last.
func BenchmarkKeeperLook_200Panes(b *testing.B) {
	const n = 200
	v := &view.View{Panes: make([]atomic.Pointer[view.Pane], n)}
	l := lineState{keys: map[string]string{}}
	pid := actor.NewPID("nonhost", "pane")
	for i := range n {
		term := "term_" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		v.Panes[i].Store(&view.Pane{Info: protocol.PaneInfo{TerminalID: term}, PID: pid})
		l.keys[term] = term
	}
	l.due(v)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		j := i % n
		old := v.Rec(j)
		v.Panes[j].Store(&view.Pane{Info: old.Info, PID: pid})
		if got := l.due(v); len(got) != 1 {
			b.Fatalf("%d panes due, want the 1 that changed", len(got))
		}
	}
}
