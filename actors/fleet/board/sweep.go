package board

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// HubTime is the hub's clock now: the store time of a write to the clock
// key. Leases are judged by it, so members' clocks never matter.
func (b *Board) HubTime(ctx context.Context, who string) (time.Time, error) {
	if _, err := b.kv.Put(ctx, "clock", []byte(who)); err != nil {
		return time.Time{}, fmt.Errorf("fleet board: clock: %w", err)
	}
	e, err := b.kv.Get(ctx, "clock")
	if err != nil {
		return time.Time{}, fmt.Errorf("fleet board: clock: %w", err)
	}
	return e.Created(), nil
}

// Sweep returns to ready every held task whose lease ran out, with an
// activity naming the lost worker, and returns them. Every member runs it
// (every TTL/2 is right); a renewal between the judgement and the write,
// or another sweeper first, leaves the task alone (CAS on the judged
// revision). A sweeper releases a lease only once it has itself been
// connected for the lease's TTL (since it opened the board or last
// reconnected): after a hub restart or a partition every live holder has
// had a full TTL to renew before anyone judges it, so only the dead lose
// their tasks. Sweep is not meant to run twice at once on one Board.
func (b *Board) Sweep(ctx context.Context, sweeper string) ([]*Task, error) {
	now, err := b.HubTime(ctx, sweeper)
	if err != nil {
		return nil, err
	}
	up := b.connectedFor(now)
	held, err := b.List(ctx, protocol.TaskRunning, protocol.TaskBlocked)
	if err != nil {
		return nil, err
	}
	var out []*Task
	for _, judged := range held {
		if !judged.Held() {
			continue
		}
		ttl := time.Duration(judged.Worker.LeaseMS) * time.Millisecond
		if !now.After(judged.StoredAt.Add(ttl)) || up < ttl {
			continue
		}
		released := false
		t, err := b.change(ctx, judged.ID, func(t *Task) error {
			released = false
			if t.Revision != judged.Revision {
				return errSkip // renewed, reported or swept since
			}
			from, machine := t.Status, t.Worker.Machine
			t.Status, t.Worker = protocol.TaskReady, nil
			b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityReleased, From: from, Status: protocol.TaskReady,
				Message: fmt.Sprintf("worker on machine %s lost: its lease was not renewed within %s; the task is ready again", machine, ttl),
				Source:  "fleet:" + sweeper})
			released = true
			return nil
		})
		var pe *protocol.Error
		if errors.As(err, &pe) && pe.Code == protocol.CodeTaskNotFound {
			continue
		}
		if err != nil {
			return out, err
		}
		if released {
			out = append(out, t)
		}
	}
	return out, nil
}

// connectedFor is how long, by the hub's clock now, this board's
// connection has been up without a reconnection, as sweeps have seen it:
// the first sweep, and the first after each reconnection, start it at
// zero.
func (b *Board) connectedFor(now time.Time) time.Duration {
	n := b.js.Conn().Stats().Reconnects
	b.up.Lock()
	defer b.up.Unlock()
	if b.up.since.IsZero() || n != b.up.reconnects {
		b.up.since, b.up.reconnects = now, n
	}
	return now.Sub(b.up.since)
}
