package tasks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The store writes each Put's tasks and no other (a burst to one task
// coalesced), removes a removed task's file, and reads back what it
// wrote; a task file it cannot read (not JSON, another id, a FIFO-sized
// lie) is left in place and skipped, and the next id passes it.
func TestStore_WritesWhatChangedAndReadsBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tasks")
	st, _, found, err := OpenStore(dir, nil)
	if err != nil || found {
		t.Fatalf("open an empty store: found %v, %v", found, err)
	}
	if err := st.Migrate(&model.SavedTasks{NextID: 3, Tasks: []protocol.TaskInfo{{ID: "task-1", Title: "one", Status: protocol.TaskReady}, {ID: "task-2", Title: "two", Status: protocol.TaskDone}}}); err != nil {
		t.Fatal(err)
	}
	done := make(chan uint64, 8)
	st.Start(func(gen uint64, err error) {
		if err != nil {
			t.Errorf("write: %v", err)
		}
		done <- gen
	})
	files := st.FilesWritten.Load()
	gen := st.Put([]protocol.TaskInfo{{ID: "task-1", Title: "one", Status: protocol.TaskRunning}}, []uint64{2}, 0)
	for got := uint64(0); got < gen; got = <-done {
	}
	// task-1.json and board.json (its write syncs the folder).
	if n := st.FilesWritten.Load() - files; n != 2 {
		t.Fatalf("one task's change wrote %d files", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "task-2.json")); !os.IsNotExist(err) {
		t.Fatalf("task-2.json after its removal: %v", err)
	}
	if !st.Close(5 * time.Second) {
		t.Fatal("the writer did not stop")
	}
	if err := os.WriteFile(filepath.Join(dir, "task-7.json"), []byte(`{"id":"task-7"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "task-8.json"), []byte(`{"id":"task-1","title":"x","status":"ready"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, saved, found, err := OpenStore(dir, nil)
	if err != nil || !found {
		t.Fatalf("reopen: found %v, %v", found, err)
	}
	if len(saved.Tasks) != 1 || saved.Tasks[0].ID != "task-1" || saved.Tasks[0].Status != protocol.TaskRunning || saved.NextID != 9 {
		t.Fatalf("read back %+v", saved)
	}
	if _, err := os.Stat(filepath.Join(dir, "task-7.json")); err != nil {
		t.Fatalf("an unreadable task file was not left in place: %v", err)
	}
}

// A Put that moved the next id, then one that did not, both queued before
// the writer takes them: board.json gets the new id (the second's 0,
// "unchanged", overwrote it, and a clean stop lost the last task's id).
func TestStore_AQueuedNextIDOutlivesAnUnchangedOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tasks")
	st, _, _, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Put([]protocol.TaskInfo{{ID: "task-3", Title: "three", Status: protocol.TaskReady}}, nil, 4)
	st.Put([]protocol.TaskInfo{{ID: "task-2", Title: "two", Status: protocol.TaskRunning}}, nil, 0)
	st.Start(nil) // the writer takes both at once
	if !st.Close(5 * time.Second) {
		t.Fatal("the writer did not stop")
	}
	// board.json itself: a reopen also takes the id past the task files
	// it finds, which hides a lost id until the newest task is removed.
	data, err := os.ReadFile(filepath.Join(dir, boardFile))
	if err != nil || !strings.Contains(string(data), `"next_id":4`) {
		t.Fatalf("board.json (%v): %s, want next id 4", err, data)
	}
}
