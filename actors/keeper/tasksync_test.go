package keeper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// A Tasks with a Sync is saved at once and answered once a file holding
// it is on disk; the same board again (nothing new to write) is answered
// too, and so is each of several syncs in flight together.
func TestKeeper_TasksSyncAnsweredWhenOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	system, _, kpid, session := startKeeper(t, path)
	system.Root.Send(kpid, &Attach{Session: session})
	saved := make(chan *TasksSaved, 8)
	probe := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*TasksSaved); ok {
			saved <- m
		}
	}))
	board := func(n uint64) *model.SavedTasks {
		return &model.SavedTasks{NextID: n + 1, Tasks: []protocol.TaskInfo{{ID: protocol.TaskID(n), Title: "claimed", Status: protocol.TaskRunning}}}
	}
	wait := func(want uint64) {
		t.Helper()
		select {
		case got := <-saved:
			if got.Sync != want || got.Err != nil {
				t.Fatalf("saved %+v, want sync %d", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("sync %d never answered", want)
		}
	}
	system.Root.Send(kpid, &Tasks{Saved: board(1), Sync: 1, ReplyTo: probe})
	wait(1)
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), `"next_id": 2`) {
		t.Fatalf("answered before the file held the board (%v):\n%s", err, data)
	}
	system.Root.Send(kpid, &Tasks{Saved: board(1), Sync: 2, ReplyTo: probe})
	wait(2)
	for i := uint64(3); i <= 5; i++ {
		system.Root.Send(kpid, &Tasks{Saved: board(i), Sync: i, ReplyTo: probe})
	}
	for i := uint64(3); i <= 5; i++ {
		wait(i)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"next_id": 6`) {
		t.Fatalf("the last board is not on disk:\n%s", data)
	}
}

// Without a session file nothing is kept: a sync is answered with why.
func TestKeeper_TasksSyncWithoutAFile(t *testing.T) {
	system, _, kpid, session := startKeeper(t, "")
	system.Root.Send(kpid, &Attach{Session: session})
	saved := make(chan *TasksSaved, 1)
	probe := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*TasksSaved); ok {
			saved <- m
		}
	}))
	system.Root.Send(kpid, &Tasks{Saved: &model.SavedTasks{}, Sync: 9, ReplyTo: probe})
	if got := <-saved; got.Sync != 9 || got.Err == nil {
		t.Fatalf("saved %+v, want an error", got)
	}
}
