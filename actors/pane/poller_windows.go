package pane

import (
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// On Windows a ConPTY is a pipe no readiness API reports on: each pane's
// terminal is read by a goroutine of its own (readLoop), blocked in its
// read, and live handoff is not supported (no handoffConsole).
type (
	// polling counts the reader goroutines of the Runtime's panes.
	polling struct{ readers atomic.Int64 }
	// reading says the pane's reader was started (once).
	reading struct{ started bool }
)

// Readers is how many terminals are read by goroutines of their own.
func (rt *Runtime) Readers() int { return int(rt.readers.Load()) }

func (p *Pane) startReading(root *actor.RootContext, self *actor.PID) {
	if p.started {
		return
	}
	p.started = true
	p.rt.readers.Add(1)
	go func() {
		defer p.rt.readers.Add(-1)
		p.readLoop(root, self)
	}()
}

func (p *Pane) pauseReading() (uint32, bool) { return 0, false }
func (p *Pane) resumeReading()               {}
func (p *Pane) stopReading()                 {}

// echoing: a reader of its own rings the pane through the pool.
func (p *Pane) echoing(time.Time) {}
