package tasks

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkBoard_ReportAndSave is one progress report on a board of 1000
// tasks with full histories, and what the store is handed after it: only
// the changed task is copied.
func BenchmarkBoard_ReportAndSave(b *testing.B) {
	bd := testBoard()
	for range 1000 {
		task, _, _ := bd.create(&protocol.TaskCreateParams{Title: "t"}, "bench")
		bd.report(task.ID, protocol.TaskRunning, "", "bench")
		for range protocol.MaxTaskActivities {
			bd.report(task.ID, protocol.TaskRunning, "step", "bench")
		}
	}
	bd.flush()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := bd.report("task-500", protocol.TaskRunning, "step", "bench"); err != nil {
			b.Fatal(err)
		}
		bd.flush()
	}
}
