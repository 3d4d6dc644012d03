//go:build unix

package pane

import (
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/protocol"
)

// slowTable is a process table whose walks wait until release is closed:
// a /proc that takes its time. Every job it walks is one "fake-job".
type slowTable struct {
	procs.Table
	release chan struct{}
}

func (s *slowTable) Job(shell, group int) []procs.Entry {
	<-s.release
	return []procs.Entry{{PID: group, Name: "fake-job"}}
}

// pane.process_info is answered from the detector's walk of the process
// table, never by a walk in the pane's Receive: while the walk hangs the
// pane still answers a read, and the answer then lists what the walk
// found.
func TestProcessInfo_FromTheDetectorsWalk(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	table := &slowTable{Table: procs.Host, release: make(chan struct{})}
	released := false
	release := func() {
		if !released {
			released = true
			close(table.release)
		}
	}
	t.Cleanup(release)
	rt := NewRuntime()
	rt.procs = table
	props, _, err := rt.Start(Spec{TerminalID: "term_t", Argv: []string{"/bin/sh", "-c", "echo ready; sleep 100"}, Cwd: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, Log: quiet})
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
	pid := <-child

	prm, _ := protocol.DecodeParams("pane.process_info", []byte(`{"pane_id":"w1:p1"}`))
	info := system.Root.RequestFuture(pid, &Request{Call: &kit.Call{Method: "pane.process_info", Params: prm}, PaneID: "w1:p1"}, 10*time.Second)
	screenText(t, system, pid) // answered while the walk hangs
	release()
	res, err := info.Result()
	if err != nil {
		t.Fatal(err)
	}
	got := res.(*kit.Reply).Result.(protocol.PaneProcessInfoResult).ProcessInfo
	if got.PaneID != "w1:p1" || got.ShellPID == nil || got.ForegroundProcessGroupID == nil {
		t.Fatalf("process_info = %+v, want w1:p1 with its shell and foreground group", got)
	}
	if len(got.ForegroundProcesses) != 1 || got.ForegroundProcesses[0].Name != "fake-job" || got.ForegroundProcesses[0].PID != *got.ForegroundProcessGroupID {
		t.Fatalf("foreground processes %+v, want the detector's walk: one fake-job led by group %d", got.ForegroundProcesses, *got.ForegroundProcessGroupID)
	}
}
