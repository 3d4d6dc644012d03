package gateway

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// The idle clock closes a connection that received nothing for
// IdleTimeout while it waits for nothing. It is a scheduler timer that
// re-arms itself for what is left of the timeout, not
// ctx.SetReceiveTimeout: that one's timer goroutine writes the actor
// context's fields while the mailbox reads them (a data race in this
// protoactor version, which the race detector reports), and it resets a
// runtime timer on every message where this takes a clock reading.

// idleCheck is the idle clock going off.
type idleCheck struct{}

// idleClock is a connection's idle timeout.
type idleClock struct {
	timers   kit.Timers
	timer    uint64    // the pending check, 0 when the clock is off
	lastSeen time.Time // the last message but the clock's own
}

// start arms the clock for the whole timeout.
func (k *idleClock) start(ctx actor.Context, after time.Duration) {
	k.timers.Cancel(k.timer)
	k.lastSeen = time.Now()
	k.timer = k.timers.After(ctx, after, &idleCheck{})
}

// stop turns the clock off for good (a stream may pause as long as its
// producer likes) or as the connection stops.
func (k *idleClock) stop() {
	k.timers.StopAll()
	k.timer = 0
}

// fired reports whether the timeout has run out since the last message;
// when it has not, the clock is armed again for what is left.
func (k *idleClock) fired(ctx actor.Context, f *kit.Fired, timeout time.Duration) bool {
	k.timers.Fired(f)
	if k.timer == 0 {
		return false
	}
	k.timer = 0
	if left := timeout - time.Since(k.lastSeen); left > 0 {
		k.timer = k.timers.After(ctx, left, &idleCheck{})
		return false
	}
	return true
}
