package server

import (
	"flag"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkIdlePane_Heap reports what an idle pane keeps on the Go heap:
// the live bytes and objects added by 200 tabs (a shell each, prompt drawn,
// detection run), measured after two collections, and the goroutine
// stacks they added. Unlike RSS it does not
// depend on the machine's load, so it compares before and after exactly
// (to a few bytes).
// Run it alone: go test ./actors/server -run XXX -bench IdlePane_Heap -benchtime 1x
// With -idleheap=P (and -memprofilerate=512) it writes the heap's profile
// before the tabs to P.before and after them to P, while the panes live, for
// go tool pprof -sample_index=inuse_space -base P.before.
var idleHeap = flag.String("idleheap", "", "write heap profiles before (P.before) and after (P) BenchmarkIdlePane_Heap adds its tabs")

func BenchmarkIdlePane_Heap(b *testing.B) {
	const panes = 200
	c := dial(b, startServer(b))
	addTabs := func(n int) {
		b.Helper()
		ids := make([]string, 0, n)
		for i := 0; i < n; i++ {
			var created protocol.TabCreated
			if err := c.Call("tab.create", map[string]any{"cwd": "/tmp"}, &created); err != nil {
				b.Fatalf("tab %d: %v", i, err)
			}
			ids = append(ids, created.RootPane.PaneID)
		}
		for _, id := range ids {
			if err := c.Call("pane.wait_for_output", map[string]any{"pane_id": id, "source": "visible", "match": map[string]string{"type": "regex", "value": "[$#]"}, "timeout_ms": 20000}, nil); err != nil {
				b.Fatalf("prompt of %s: %v", id, err)
			}
		}
		// Past the detector's first walks, the pane's first process facts
		// and the panes' quiet compaction (2 s after their last output).
		time.Sleep(3 * time.Second)
	}
	live := func(profile string) (bytes, objects, stacks uint64, goroutines int) {
		runtime.GC()
		runtime.GC()
		runtime.GC() // the heap profile is a collection behind
		if *idleHeap != "" {
			f, err := os.Create(profile)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, m.HeapObjects, m.StackInuse, runtime.NumGoroutine()
	}
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		b.Fatal(err)
	}
	addTabs(5) // what the first tabs set up once is not per pane
	per := func(after, before uint64) float64 { return float64(int64(after)-int64(before)) / panes }
	var bytes, objects, stacks, goroutines float64
	for b.Loop() {
		bytes0, objs0, stacks0, g0 := live(*idleHeap + ".before")
		addTabs(panes)
		bytes1, objs1, stacks1, g1 := live(*idleHeap)
		bytes, objects, stacks = per(bytes1, bytes0), per(objs1, objs0), per(stacks1, stacks0)
		goroutines = per(uint64(g1), uint64(g0))
	}
	b.ReportMetric(bytes, "B/pane")
	b.ReportMetric(objects, "objs/pane")
	b.ReportMetric(stacks, "stackB/pane")
	b.ReportMetric(goroutines, "goroutines/pane")
	b.ReportMetric(0, "ns/op")
}
