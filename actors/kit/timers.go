package kit

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"
)

// Timers sends its actor messages later, through protoactor's timer
// scheduler, and keeps the cancel function of every timer still pending:
// a timer is cancelled when its reason goes away, and an actor that stops
// calls StopAll, so no timer outlives its purpose or its actor.
//
// A timer's message arrives wrapped in a *Fired; the actor hands that to
// Fired, which forgets the timer and returns the message to handle.
//
// The scheduler and the map exist only while a timer is pending: an idle
// actor (a thousand idle panes) holds neither.
type Timers struct {
	sched   *scheduler.TimerScheduler
	pending map[uint64]scheduler.CancelFunc
	next    uint64
}

// Fired carries a timer's message to its actor.
type Fired struct {
	id  uint64
	Msg any
}

// After sends msg to the actor after d and returns the timer's id (never
// 0, so 0 can mean "no timer").
func (t *Timers) After(ctx actor.Context, d time.Duration, msg any) uint64 {
	if t.pending == nil {
		t.sched = scheduler.NewTimerScheduler(ctx)
		t.pending = map[uint64]scheduler.CancelFunc{}
	}
	t.next++
	t.pending[t.next] = t.sched.SendOnce(d, ctx.Self(), &Fired{id: t.next, Msg: msg})
	return t.next
}

// Cancel stops timer id if it is still pending.
func (t *Timers) Cancel(id uint64) {
	if cancel, ok := t.pending[id]; ok {
		cancel()
		t.forget(id)
	}
}

// Fired forgets a timer that went off and returns its message.
func (t *Timers) Fired(f *Fired) any {
	t.forget(f.id)
	return f.Msg
}

// forget drops timer id, and the map and scheduler with the last one.
func (t *Timers) forget(id uint64) {
	delete(t.pending, id)
	if len(t.pending) == 0 {
		t.sched, t.pending = nil, nil
	}
}

// Pending is how many timers have neither fired nor been cancelled.
func (t *Timers) Pending() int { return len(t.pending) }

// StopAll cancels every pending timer.
func (t *Timers) StopAll() {
	for _, cancel := range t.pending {
		cancel()
	}
	t.sched, t.pending = nil, nil
}
