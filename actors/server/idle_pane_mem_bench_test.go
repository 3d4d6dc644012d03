package server

import (
	"runtime"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkIdlePane_Heap reports what an idle pane keeps on the Go heap:
// the live bytes and objects added by 200 tabs (a shell each, prompt drawn,
// detection run), measured after two collections. Unlike RSS it does not
// depend on the machine's load, so it compares before and after exactly
// (to a few bytes).
// Run it alone: go test ./actors/server -run XXX -bench IdlePane_Heap -benchtime 1x
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
		// Past the detector's first walks and the pane's first process facts.
		time.Sleep(2 * time.Second)
	}
	live := func() (bytes, objects uint64) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc, m.HeapObjects
	}
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		b.Fatal(err)
	}
	addTabs(5) // what the first tabs set up once is not per pane
	var perPane, objsPerPane float64
	for b.Loop() {
		bytes0, objs0 := live()
		addTabs(panes)
		bytes1, objs1 := live()
		perPane = float64(int64(bytes1)-int64(bytes0)) / panes
		objsPerPane = float64(int64(objs1)-int64(objs0)) / panes
	}
	b.ReportMetric(perPane, "B/pane")
	b.ReportMetric(objsPerPane, "objs/pane")
	b.ReportMetric(0, "ns/op")
}
