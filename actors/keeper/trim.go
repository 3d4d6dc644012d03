package keeper

import (
	"runtime"
	"runtime/debug"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// trimDelay is how long the set of panes must stay the same before the
// server hands the memory their start-up (or close) left behind back to
// the system.
const trimDelay = time.Second

// trimmer returns memory after the panes changed. Starting a pane makes
// garbage (its shell's first output, events, snapshots), and the Go
// runtime keeps the heap it grew to for the next allocations: an idle
// server held about twice its live heap (100 idle panes: 58 kB of RSS per
// pane for 23 kB live). Once the panes have been quiet for trimDelay, one
// collection returns the rest; a server that changes nothing does nothing.
type trimmer struct {
	panes   int       // panes as of the last Changed
	changed time.Time // when they last changed
	armed   bool
}

// trimDue is the trim timer firing.
type trimDue struct{}

// panesNow arms the trim when the number of panes moved.
func (k *Keeper) panesNow(ctx actor.Context, panes int) {
	if panes == k.trim.panes {
		return
	}
	k.trim.panes, k.trim.changed = panes, time.Now()
	if !k.trim.armed {
		k.trim.armed = true
		k.timers.After(ctx, trimDelay, &trimDue{})
	}
}

// trimNow returns the memory once the panes have been quiet for
// trimDelay, or waits out the rest of it.
func (k *Keeper) trimNow(ctx actor.Context) {
	if rest := trimDelay - time.Since(k.trim.changed); rest > 0 {
		k.timers.After(ctx, rest, &trimDue{})
		return
	}
	k.trim.armed = false
	go func() { // full collections: off every Receive
		runtime.GC() // and a second, in FreeOSMemory, empties the sync.Pools (I/O blocks)
		debug.FreeOSMemory()
	}()
}
