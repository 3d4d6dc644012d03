package session

import (
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/pane"
)

// A restore starts its terminals a few at once: the panes whose terminal
// cannot start are left out (a workspace left empty goes with them, its
// tabs too), every other pane runs, none is aborted, and the first call
// after it answers from the whole restored session.
func TestRestore_TerminalsThatFailAreLeftOut(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	running, aborted := &atomic.Int64{}, &atomic.Int64{}
	counted := countedPanes(running)
	starts := func(spec pane.Spec) (*actor.Props, func(), error) {
		switch {
		case spec.IDs.WorkspaceID == "w3", spec.IDs.WorkspaceID == "w7":
			return nil, nil, os.ErrPermission
		case spec.IDs.PaneID == "w5:p2":
			panic("a start that breaks")
		}
		props, _, err := counted(spec)
		return props, func() { aborted.Add(1) }, err
	}
	h := spawnSession(t, system, Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: starts, Cols: 120, Rows: 40,
		Restore: savedSession(30, 1, 2)})
	snap := h.snapshot()
	if len(snap.Workspaces) != 28 || len(snap.Panes) != 55 {
		t.Fatalf("restored %d workspaces, %d panes; want 28, 55", len(snap.Workspaces), len(snap.Panes))
	}
	for _, w := range snap.Workspaces {
		if w.WorkspaceID == "w3" || w.WorkspaceID == "w7" {
			t.Fatalf("workspace %s, whose terminals all failed, was restored", w.WorkspaceID)
		}
		if w.WorkspaceID == "w5" && w.PaneCount != 1 {
			t.Fatalf("w5 has %d panes, want the 1 that started", w.PaneCount)
		}
	}
	h.checkInvariants("after a restore with failed terminals")
	for deadline := time.Now().Add(10 * time.Second); running.Load() != 55 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond) // pane actors start after the session's message
	}
	if n := running.Load(); n != 55 {
		t.Fatalf("%d pane actors run, want 55", n)
	}
	if n := aborted.Load(); n != 0 {
		t.Fatalf("%d started terminals were aborted", n)
	}
}
