package pane

import (
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
	p.term.Compact()
}
