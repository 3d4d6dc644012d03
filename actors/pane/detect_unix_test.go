//go:build unix

package pane

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/protocol"
)

// An idle shell's pane holds no detector actor: it has one while there is
// something to detect and lets it go once quiet at its shell. Typing a
// program brings one back, which detects the agent it is (its HERDR_AGENT
// hint), and the pane lets it go again once the shell is back alone.
func TestDetector_OnlyWhileThereIsSomethingToDetect(t *testing.T) {
	catalog, _ := rules.LoadCatalog("")
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	rt := NewRuntime()
	props, _, err := rt.Start(Spec{TerminalID: "term_t", Argv: []string{"/bin/sh"}, Cwd: os.TempDir(), Env: append(os.Environ(), "PS1=$ "),
		Cols: 80, Rows: 24, Log: quiet, Catalog: catalog})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var last Facts
	child := make(chan *actor.PID, 1)
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			child <- ctx.Spawn(props)
		case *Facts:
			mu.Lock()
			last = *m
			mu.Unlock()
		}
	}))
	t.Cleanup(func() { system.Root.Stop(parent) })
	pid := <-child
	facts := func() Facts {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
	settled := func(why string, cond func(Facts) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(facts()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out: %s (facts %+v, %d detectors)", why, facts(), rt.Detectors())
			}
		}
	}
	send := func(text string) {
		t.Helper()
		raw, _ := json.Marshal(protocol.PaneSendTextParams{PaneID: "w1:p1", Text: text})
		prm, err := protocol.DecodeParams("pane.send_text", raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := system.Root.RequestFuture(pid, &Request{Call: &kit.Call{Method: "pane.send_text", Params: prm}, PaneID: "w1:p1"}, 5*time.Second).Result(); err != nil {
			t.Fatal(err)
		}
	}

	settled("the shell alone at its prompt, its detector let go", func(f Facts) bool {
		return f.Job == JobShell && f.Agent == "" && rt.Detectors() == 0
	})
	send("HERDR_AGENT=claude sleep 100\r")
	settled("the program's agent detected", func(f Facts) bool { return f.Job == JobOther && f.Agent == "claude" })
	if n := rt.Detectors(); n != 1 {
		t.Fatalf("%d detectors while an agent runs; want 1", n)
	}
	time.Sleep(quietAfter + 200*time.Millisecond)
	if n := rt.Detectors(); n != 1 {
		t.Fatalf("%d detectors while a quiet agent runs; want it kept", n)
	}
	send("\x03") // the agent ends; the shell is alone again
	settled("the shell alone again, its detector let go", func(f Facts) bool {
		return f.Job == JobShell && f.Agent == "" && rt.Detectors() == 0
	})
}

// panickyTable breaks at its first walk, as a hostile process table might.
type panickyTable struct {
	procs.Table
	broke atomic.Bool
}

func (p *panickyTable) Job(shell, group int) []procs.Entry {
	if p.broke.CompareAndSwap(false, true) {
		panic("a process table that breaks")
	}
	return p.Table.Job(shell, group)
}

// A detector that panics (it is no child of the pane) is restarted by its
// guardian, and the pane's next walk is answered by it.
func TestDetector_RestartedAfterAPanic(t *testing.T) {
	rt := NewRuntime()
	table := &panickyTable{Table: procs.Host}
	rt.procs = table
	system, pid, _ := spawnOnRuntime(t, rt, "/bin/sh", "-c", "echo ready; sleep 100")
	prm, _ := protocol.DecodeParams("pane.process_info", []byte(`{"pane_id":"w1:p1"}`))
	eventually(t, "a walk after the detector's panic", func() bool {
		res, err := system.Root.RequestFuture(pid, &Request{Call: &kit.Call{Method: "pane.process_info", Params: prm}, PaneID: "w1:p1"}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		info := res.(*kit.Reply).Result.(protocol.PaneProcessInfoResult).ProcessInfo
		return table.broke.Load() && len(info.ForegroundProcesses) > 0
	})
	if n := rt.Detectors(); n != 1 {
		t.Fatalf("%d detectors after the restart; want 1", n)
	}
}
