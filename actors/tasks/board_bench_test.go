package tasks

import (
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
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

// BenchmarkTasks_Create10000 makes 10,000 tasks through the actor with a
// real store in a temporary folder, each answered before the next, and
// reports the bytes allocated and the live heap at the end per 10,000
// (the board, not a snapshot of it per change, is what is kept).
func BenchmarkTasks_Create10000(b *testing.B) {
	for b.Loop() {
		dir := b.TempDir()
		store, _, _, err := OpenStore(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		pid := system.Root.Spawn(Props(Options{Store: store}))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range 10000 {
			p := &protocol.TaskCreateParams{Title: "task", Description: strings.Repeat("d", 1000)}
			res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "c", Method: "task.create", Params: p}, 10*time.Second).Result()
			if err != nil || res.(*kit.Reply).Err != nil {
				b.Fatalf("create %d: %v %v", i, err, res)
			}
		}
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MB-alloc/10k")
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MB-heap/10k")
		// Stopping writes what is queued and waits for the writer.
		if err := system.Root.StopFuture(pid).Wait(); err != nil {
			b.Fatal(err)
		}
		if !store.Close(10 * time.Minute) {
			b.Fatal("the store still writes")
		}
		b.ReportMetric(float64(store.BytesWritten.Load())/(1<<20), "MB-written/10k")
		b.ReportMetric(float64(store.FilesWritten.Load()), "files-written/10k")
		system.Shutdown()
	}
}
