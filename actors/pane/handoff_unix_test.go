//go:build unix

package pane

import (
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// spawnPane starts argv in a pane actor under a parent that drops what
// the pane tells it.
func spawnPane(t *testing.T, argv ...string) (*actor.ActorSystem, *actor.PID) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	props, _, err := NewRuntime().Start(Spec{TerminalID: "term_t", Argv: argv, Cwd: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	child := make(chan *actor.PID, 1)
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			child <- ctx.Spawn(props)
		}
	}))
	t.Cleanup(func() { system.Root.Stop(parent) })
	return system, <-child
}

// screenText reads the pane's recent output through its own request.
func screenText(t *testing.T, system *actor.ActorSystem, pid *actor.PID) string {
	t.Helper()
	prm, _ := protocol.DecodeParams("pane.read", []byte(`{"pane_id":"w1:p1","source":"recent"}`))
	res, err := system.Root.RequestFuture(pid, &Request{Call: &kit.Call{Method: "pane.read", Params: prm}, PaneID: "w1:p1"}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*kit.Reply).Result.(protocol.PaneRead).Read.Text
}

// A frozen pane reads nothing more (its program's output waits in the
// kernel) and describes itself; thawed, it reads on without a gap.
func TestFreezeThenThaw(t *testing.T) {
	system, pid := spawnPane(t, "/bin/sh", "-c", "echo early; sleep 0.4; echo late; sleep 100")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(screenText(t, system, pid), "early") {
		if time.Now().After(deadline) {
			t.Fatalf("no output from the program: %q", screenText(t, system, pid))
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := system.Root.RequestFuture(pid, &Freeze{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := res.(*Frozen)
	if !ok || f.FD <= 2 || f.Pid <= 1 || len(f.Emulator) == 0 || f.TerminalID != "term_t" {
		t.Fatalf("freeze answered %#v", res)
	}
	time.Sleep(700 * time.Millisecond) // "late" is printed meanwhile
	if text := screenText(t, system, pid); strings.Contains(text, "late") {
		t.Fatalf("a frozen pane read on:\n%s", text)
	}
	system.Root.Send(pid, &Thaw{})
	deadline = time.Now().Add(5 * time.Second)
	for !strings.Contains(screenText(t, system, pid), "late") {
		if time.Now().After(deadline) {
			t.Fatalf("the thawed pane never read what was printed while it was frozen:\n%s", screenText(t, system, pid))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A second freeze of a frozen pane is refused, not deadlocked.
func TestFreezeTwiceRefused(t *testing.T) {
	system, pid := spawnPane(t, "/bin/sh", "-c", "sleep 100")
	if _, err := system.Root.RequestFuture(pid, &Freeze{}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	res, err := system.Root.RequestFuture(pid, &Freeze{}, 5*time.Second).Result()
	if r, ok := res.(*kit.Reply); err != nil || !ok || r.Err == nil {
		t.Fatalf("second freeze: %#v %v", res, err)
	}
}
