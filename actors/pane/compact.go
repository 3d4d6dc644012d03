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

// compactEvery is how often a terminal whose output goes on is compacted
// anyway: a pane that never pauses for quietAfter (a busy log) keeps its
// scrollback compressed too, at the cost of compressing what it holds
// every so often (10 MB in ~20 ms), a small fraction of a flood's work.
const compactEvery = 10 * time.Second

// compactTick checks whether the terminal went quiet.
type compactTick struct{}

// quiet is when the terminal last changed and was last compacted, and
// whether a compactTick is on its way: one timer at most, re-armed by the
// tick itself, so a flood costs a clock read per batch and no timer.
type quiet struct {
	changed, compacted time.Time
	armed              bool
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
// quietAfter (and then asks for a trim if that let go of a flood's
// buffers), or compactEvery after the last compaction while output goes
// on; else it waits for the nearer of the two.
func (p *Pane) compactTicked(ctx actor.Context) {
	p.quiet.armed = false
	now := time.Now()
	left := quietAfter - now.Sub(p.quiet.changed)
	if left <= 0 {
		p.quiet.compacted = now
		if p.term.Compact() >= trimFreed {
			p.rt.trimSoon()
		}
		p.idleDetector(ctx)
		return
	}
	if p.quiet.compacted.IsZero() {
		p.quiet.compacted = now // a pane's first output starts the clock
	}
	if due := compactEvery - now.Sub(p.quiet.compacted); due <= 0 {
		p.quiet.compacted = now
		p.term.Compact()
	} else {
		left = min(left, due)
	}
	p.quiet.armed = true
	p.timers.After(ctx, left, &compactTick{})
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
