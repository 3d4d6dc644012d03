package pane

import (
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// quietAfter is how long a pane's terminal goes without output or resize
// before the pane makes it small (emulator.Terminal.Compact): its whole
// scrollback compressed, the buffers kept for the next output let go.
const quietAfter = 2 * time.Second

// compactTick checks whether the terminal went quiet.
type compactTick struct{}

// quiet is when the terminal last changed and whether a compactTick is on
// its way: one timer at most, re-armed by the tick itself, so a flood
// costs a clock read per batch and no timer.
type quiet struct {
	changed time.Time
	armed   bool
}

// termChanged notes output or a resize, arming the quiet check.
func (p *Pane) termChanged(ctx actor.Context) {
	p.quiet.changed = time.Now()
	if !p.quiet.armed {
		p.quiet.armed = true
		p.timers.After(ctx, quietAfter, &compactTick{})
	}
}

// compactTicked compacts the terminal once it has been quiet for
// quietAfter, or waits for the rest of that time.
func (p *Pane) compactTicked(ctx actor.Context) {
	p.quiet.armed = false
	if left := quietAfter - time.Since(p.quiet.changed); left > 0 {
		p.quiet.armed = true
		p.timers.After(ctx, left, &compactTick{})
		return
	}
	if p.term.Compact() >= trimFreed {
		p.rt.trimSoon()
	}
}

// trimFreed is what a compaction must let go of for the server to hand
// memory back: a pane that printed a few lines does not ask.
const trimFreed = 128 << 10

// trimAfter gathers the compactions of panes gone quiet together into
// one trim.
const trimAfter = time.Second

// memTrim hands the memory compacted panes let go of back to the system.
// A flood leaves the Go heap at about twice what it keeps live (the
// runtime keeps what it grew to for the next allocations): once the
// output stopped, one collection returns it. One trim at most is pending
// for the whole server.
type memTrim struct{ armed atomic.Bool }

// trimSoon returns the memory after trimAfter, on a goroutine of its own
// (a full collection: off every Receive).
func (rt *Runtime) trimSoon() {
	if rt.trim.armed.CompareAndSwap(false, true) {
		time.AfterFunc(trimAfter, func() {
			rt.trim.armed.Store(false)
			debug.FreeOSMemory()
		})
	}
}
