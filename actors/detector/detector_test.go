package detector

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/procs"
)

// fakeTable is a process table with one job: claude running under node.
type fakeTable struct{ panics atomic.Int32 }

func (f *fakeTable) Job(shell, group int) []procs.Entry {
	if f.panics.Load() > 0 {
		f.panics.Add(-1)
		panic("a process table that breaks")
	}
	return []procs.Entry{{PID: group, Name: "node"}}
}
func (f *fakeTable) Argv(int) []string {
	return []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}
}
func (f *fakeTable) Cwd(int) string                 { return "/home/u/proj" }
func (f *fakeTable) Env(int, string) (string, bool) { return "", false }
func (f *fakeTable) Session(int) []int              { return nil }

// pane stands in for a pane: it supervises a detector as a pane does,
// passes snapshots on and reports what the detector saw.
func pane(t *testing.T, table procs.Table) (*actor.RootContext, *actor.PID, chan *Saw) {
	t.Helper()
	catalog, warnings := rules.LoadCatalog("")
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}))
	saw := make(chan *Saw, 16)
	var child *actor.PID
	props := actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			child = ctx.Spawn(Props(catalog, table))
		case *Snapshot:
			ctx.Send(child, m)
		case *Saw:
			saw <- m
		}
	}, actor.WithSupervisor(Supervision(slog.New(slog.NewTextHandler(io.Discard, nil)))))
	return system.Root, system.Root.Spawn(props), saw
}

const working = `
⏺ Read(internal/app/app_test.go)
  ⎿  Read 212 lines

✻ Pondering… (12s · ↓ 1.2k tokens · esc to interrupt)

────────────────────────────────────────
❯ 
────────────────────────────────────────
  ⏵⏵ accept edits on (shift+tab to cycle)
`

const idle = `
⏺ All 42 tests pass.

✻ Worked for 1m 12s

────────────────────────────────────────
❯ 
────────────────────────────────────────
  ? for shortcuts
`

func snapshot(rev uint64, screen string) *Snapshot {
	return &Snapshot{Revision: rev, Lines: strings.Split(screen, "\n"), Shell: 10, Group: 20}
}

func next(t *testing.T, saw chan *Saw, within time.Duration) *Saw {
	t.Helper()
	select {
	case s := <-saw:
		return s
	case <-time.After(within):
		t.Fatalf("the detector said nothing within %v", within)
		return nil
	}
}

func TestDetectorRecognisesAndEvaluates(t *testing.T) {
	root, p, saw := pane(t, &fakeTable{})
	root.Send(p, snapshot(1, working))
	s := next(t, saw, 2*time.Second)
	if s.Agent != "claude" || s.State != rules.StateWorking || s.Cwd != "/home/u/proj" || s.Revision != 1 {
		t.Fatalf("saw %+v, want claude working in /home/u/proj at revision 1", s)
	}
	// The same again: nothing new to tell.
	root.Send(p, snapshot(2, working))
	root.Send(p, snapshot(3, idle))
	if s := next(t, saw, 2*time.Second); s.State != rules.StateIdle || s.Revision != 3 {
		t.Fatalf("saw %+v, want idle at revision 3 (revision 2 changed nothing)", s)
	}
}

// Working → a screen with no idle marker is held as working a moment,
// then reported idle by the detector's own timer.
func TestDetectorHoldsUnmarkedIdle(t *testing.T) {
	root, p, saw := pane(t, &fakeTable{})
	root.Send(p, snapshot(1, working))
	next(t, saw, 2*time.Second)
	start := time.Now()
	root.Send(p, snapshot(2, "\n❯ \n"))
	s := next(t, saw, 2*time.Second)
	if s.State != rules.StateIdle || time.Since(start) < IdleConfirm {
		t.Fatalf("saw %+v after %v; want idle, no sooner than %v", s, time.Since(start), IdleConfirm)
	}
}

// A detector that panics is restarted by its pane's supervision and
// detects again from the next snapshot.
func TestDetectorRestartsAfterAPanic(t *testing.T) {
	table := &fakeTable{}
	table.panics.Store(1)
	root, p, saw := pane(t, table)
	var logged bytes.Buffer // the pane's log, where the failure is told
	first := snapshot(1, working)
	first.Log = slog.New(slog.NewTextHandler(&logged, nil))
	root.Send(p, first)
	select {
	case s := <-saw:
		t.Fatalf("a panicking detector reported %+v", s)
	case <-time.After(200 * time.Millisecond):
	}
	root.Send(p, snapshot(2, working))
	if s := next(t, saw, 2*time.Second); s.Agent != "claude" || s.Revision != 2 {
		t.Fatalf("after the restart saw %+v, want claude at revision 2", s)
	}
	if out := logged.String(); !strings.Contains(out, "agent detector failed; restarting it") || !strings.Contains(out, "a process table that breaks") {
		t.Fatalf("the pane's log says %q; want the failure and its reason", out)
	}
}

// shellTable is a terminal whose shell (pid 10, its own group) runs a
// child (pid 11) while running is set.
type shellTable struct{ running atomic.Bool }

func (s *shellTable) Job(shell, group int) []procs.Entry {
	if s.running.Load() {
		return []procs.Entry{{PID: 10, Name: "sh"}, {PID: 11, Name: "cat"}}
	}
	return []procs.Entry{{PID: 10, Name: "sh"}}
}
func (s *shellTable) Argv(pid int) []string          { return nil }
func (s *shellTable) Cwd(int) string                 { return "/tmp" }
func (s *shellTable) Env(int, string) (string, bool) { return "", false }
func (s *shellTable) Session(int) []int              { return nil }

// A program that starts and ends between two snapshots, seen only by a
// Describe walk (pane.process_info) in between: the next snapshot's walk
// still tells the pane the shell is alone again, since the pane took the
// Describe's job as what it knows.
func TestDetectorTellsTheJobAfterADescribe(t *testing.T) {
	table := &shellTable{}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}))
	saw, described := make(chan *Saw, 16), make(chan *Described, 4)
	var child *actor.PID
	p := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			child = ctx.Spawn(Props(nil, table))
		case *Snapshot, *Describe:
			ctx.Send(child, m)
		case *Saw:
			saw <- m
		case *Described:
			described <- m
		}
	}))
	shell := func(rev uint64) *Snapshot {
		return &Snapshot{Revision: rev, Lines: []string{"$"}, Shell: 10, Group: 10}
	}
	system.Root.Send(p, shell(1))
	if s := next(t, saw, 5*time.Second); len(s.Job.Processes) != 1 {
		t.Fatalf("first walk: %+v, want the shell alone", s.Job)
	}
	table.running.Store(true)
	system.Root.Send(p, &Describe{Revision: 2, Shell: 10, Group: 10})
	select {
	case d := <-described:
		if len(d.Job.Processes) != 2 {
			t.Fatalf("describe: %+v, want the shell and its child", d.Job)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no Described")
	}
	table.running.Store(false)
	system.Root.Send(p, shell(3))
	if s := next(t, saw, 5*time.Second); len(s.Job.Processes) != 1 || s.Revision != 3 {
		t.Fatalf("after the child ended: %+v, want the shell alone at revision 3", s)
	}
}
