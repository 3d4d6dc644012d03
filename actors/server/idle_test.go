package server

import (
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// An idle pane costs no OS thread of its own, no goroutine and little
// memory: its terminal waits on the runtime's one poller (actors/pane
// poller_unix.go) holding no buffer, and the rows of its screen nothing
// has written share one blank array. With 100 idle panes the server
// creates a handful of threads at most (one per pane before), runs no
// goroutine per pane (the exit comes from the shared reaper, input is
// written by the actor, output read by the poller; three each, then one,
// before), and
// its heap in use grows by well under 48 kB a pane (about 32 kB; 264 kB
// at first).
func TestServer_IdlePanes_ThreadsAndHeap(t *testing.T) {
	const panes = 100
	sock := startServer(t)
	c := dial(t, sock)
	var ws protocol.WorkspaceCreated
	if err := c.Call("workspace.create", map[string]any{"cwd": t.TempDir()}, &ws); err != nil {
		t.Fatal(err)
	}
	settle := func() (threads int, heap uint64) {
		// Let every shell print its prompt and the panes apply it.
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			var list protocol.PaneList
			if err := c.Call("pane.list", nil, &list); err != nil {
				t.Fatal(err)
			}
			busy := false
			for _, p := range list.Panes {
				busy = busy || p.Revision == 0
			}
			if !busy {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return pprof.Lookup("threadcreate").Count(), m.HeapInuse
	}
	threads0, heap0 := settle()
	goroutines0 := runtime.NumGoroutine()
	for i := 0; i < panes; i++ {
		if err := c.Call("workspace.create", map[string]any{"cwd": t.TempDir()}, nil); err != nil {
			t.Fatal(err)
		}
	}
	threads1, heap1 := settle()
	grown := runtime.NumGoroutine() - goroutines0
	t.Logf("%d idle panes: %d more goroutines, %d more threads, heap %+d B per pane", panes, grown, threads1-threads0, (int64(heap1)-int64(heap0))/panes)
	if grown > 10 {
		t.Errorf("%d idle panes run %d more goroutines; want none of their own", panes, grown)
	}
	if grown := threads1 - threads0; grown > 10 {
		t.Errorf("%d idle panes made the server create %d OS threads; want a bound independent of the panes", panes, grown)
	}
	// The heap bound is checked without the race detector (the README's
	// test command), whose own allocations per goroutine would blur it.
	if per := (int64(heap1) - int64(heap0)) / panes; per > 48<<10 && !raceDetector {
		t.Errorf("heap in use grew by %d B per idle pane; want under 48 kB", per)
	}
}
