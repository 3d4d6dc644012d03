package gateway

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// The Go runtime keeps the heap it grew to for the next allocations: once
// clients that held answers unread (up to the budgets, budget.go) are
// gone, the server's RSS stayed where their answers had taken it (150 of
// them: 150 MB, for a heap back at its size before them). After
// connections that held trimAfter between them have ended, and none has
// for trimDelay, one collection hands the memory back.
const (
	trimAfter = 8 << 20
	trimDelay = time.Second
)

// trimDue is the trim timer firing.
type trimDue struct{}

// trimmer is the gateway's count of what ended connections held.
type trimmer struct {
	freed  *atomic.Int64 // added to by each conn as it stops: the most it held unsent
	last   time.Time     // when a connection last ended
	armed  bool
	timers kit.Timers
}

// ended arms the trim once enough memory was let go.
func (k *trimmer) ended(ctx actor.Context) {
	k.last = time.Now()
	if !k.armed && k.freed.Load() >= trimAfter {
		k.armed = true
		k.timers.After(ctx, trimDelay, &trimDue{})
	}
}

// due trims once connections have stopped ending for trimDelay.
func (k *trimmer) due(ctx actor.Context) {
	if rest := trimDelay - time.Since(k.last); rest > 0 {
		k.timers.After(ctx, rest, &trimDue{})
		return
	}
	k.armed = false
	if k.freed.Swap(0) < trimAfter {
		return
	}
	go func() { // full collections: off the gateway's Receive
		runtime.GC()
		debug.FreeOSMemory()
	}()
}
