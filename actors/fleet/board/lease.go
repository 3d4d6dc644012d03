package board

import (
	"context"
	"fmt"

	"github.com/herdr-go/herdr/protocol"
)

func holderName(t *Task) string {
	if t.Worker == nil {
		return ""
	}
	return t.Worker.Machine
}

// notReady is task_not_ready for a claim of t.
func notReady(t *Task) error {
	if t.Held() {
		return protocol.Errorf(protocol.CodeTaskNotReady, "fleet task %s is %s, held by machine %s", t.ID, t.Status, holderName(t))
	}
	return protocol.Errorf(protocol.CodeTaskNotReady, "fleet task %s is %s; only a ready task is claimed", t.ID, t.Status)
}

// Claim makes m the worker of ready task id: running, with a lease of the
// board's TTL. Of members claiming one task at once exactly one wins; the
// others get task_not_ready naming the winner.
func (b *Board) Claim(ctx context.Context, id string, m Member) (*Task, Lease, error) {
	if err := m.validate(); err != nil {
		return nil, Lease{}, err
	}
	if err := validID(id); err != nil {
		return nil, Lease{}, err
	}
	l := Lease{TaskID: id, Machine: m.Name, Token: newToken(), TTL: b.cfg.LeaseTTL}
	t, err := b.change(ctx, id, func(t *Task) error {
		if t.Status != protocol.TaskReady {
			return notReady(t)
		}
		if !m.Eligible(t) {
			return protocol.Errorf(protocol.CodeTaskNotReady, "fleet task %s requires labels %v; machine %s has %v", t.ID, t.Requires, m.Name, m.Labels)
		}
		t.Worker = &Worker{TaskWorker: protocol.TaskWorker{ClaimedMS: nowMS(b.now())}, Machine: m.Name, Lease: l.Token, LeaseMS: l.TTL.Milliseconds()}
		t.Attempts++
		t.Status = protocol.TaskRunning
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityClaimed, From: protocol.TaskReady, Status: protocol.TaskRunning, Message: "claimed by machine " + m.Name, Source: "fleet:" + m.Name})
		return nil
	})
	if err != nil {
		return nil, Lease{}, err
	}
	return t, l, nil
}

// ClaimNext claims for m the first ready task (by priority, then age) it
// is eligible for, unless it already holds Capacity tasks. No task to
// take is a nil task and no error.
func (b *Board) ClaimNext(ctx context.Context, m Member) (*Task, Lease, error) {
	if err := m.validate(); err != nil {
		return nil, Lease{}, err
	}
	all, err := b.List(ctx, protocol.TaskReady, protocol.TaskRunning, protocol.TaskBlocked)
	if err != nil {
		return nil, Lease{}, err
	}
	if m.Capacity > 0 {
		held := 0
		for _, t := range all {
			if t.Held() && t.Worker.Machine == m.Name {
				held++
			}
		}
		if held >= m.Capacity {
			return nil, Lease{}, nil
		}
	}
	return b.ClaimFirst(ctx, m, all)
}

// holding checks that l still holds t.
func holding(t *Task, l Lease) error {
	if t.Held() && t.Worker.Lease == l.Token {
		return nil
	}
	if t.Held() {
		return fmt.Errorf("%w: fleet task %s is now held by machine %s", ErrLeaseLost, t.ID, t.Worker.Machine)
	}
	return fmt.Errorf("%w: fleet task %s is %s and no longer machine %s's", ErrLeaseLost, t.ID, t.Status, l.Machine)
}

// Renew keeps l alive for another TTL; ErrLeaseLost once it is gone.
func (b *Board) Renew(ctx context.Context, l Lease) error {
	_, err := b.change(ctx, l.TaskID, func(t *Task) error { return holding(t, l) })
	return err
}

// Report is the holder's word on its task: progress (status empty or the
// same, with a message), or a move of the state machine (blocked keeps
// the lease; review, failed or cancelled ends it, the worker staying on
// record). It renews the lease too.
func (b *Board) Report(ctx context.Context, l Lease, status, message string) (*Task, error) {
	if status != "" && !protocol.ValidTaskStatus(status) {
		return nil, protocol.ParamError("status", "expected one of %v, got %q", protocol.TaskStatuses, status)
	}
	if len(message) > protocol.MaxTaskMessage {
		return nil, protocol.ParamError("message", "longer than %d bytes", protocol.MaxTaskMessage)
	}
	return b.change(ctx, l.TaskID, func(t *Task) error {
		if err := holding(t, l); err != nil {
			return err
		}
		source := "fleet:" + l.Machine
		if status == "" || status == t.Status {
			if message == "" {
				return protocol.ParamError("message", "a report without a new status needs a message")
			}
			b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityMessage, Status: t.Status, Message: message, Source: source})
			return nil
		}
		if !protocol.TaskTransitionAllowed(t.Status, status) {
			return protocol.TaskTransitionError(t.ID, t.Status, status)
		}
		from := t.Status
		t.Status = status
		if !t.Held() {
			t.Worker.Lease = ""
		}
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityStatus, From: from, Status: status, Message: message, Source: source})
		return nil
	})
}

// Release gives a held task back: ready again, without a worker (the
// member will not run it, as when its agent could not start).
func (b *Board) Release(ctx context.Context, l Lease, message string) (*Task, error) {
	return b.change(ctx, l.TaskID, func(t *Task) error {
		if err := holding(t, l); err != nil {
			return err
		}
		from := t.Status
		t.Status, t.Worker = protocol.TaskReady, nil
		if message == "" {
			message = "released by machine " + l.Machine
		}
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityUnclaimed, From: from, Status: protocol.TaskReady, Message: message, Source: "fleet:" + l.Machine})
		return nil
	})
}

// Move is anyone's move of a task by the state machine (review → done,
// failed → ready, backlog → ready, → cancelled). Running is only reached
// by Claim; a move that takes a held task out of running or blocked ends
// its lease, and its worker learns so at its next Renew.
func (b *Board) Move(ctx context.Context, id, to, message, source string) (*Task, error) {
	if !protocol.ValidTaskStatus(to) {
		return nil, protocol.ParamError("status", "expected one of %v, got %q", protocol.TaskStatuses, to)
	}
	if len(message) > protocol.MaxTaskMessage {
		return nil, protocol.ParamError("message", "longer than %d bytes", protocol.MaxTaskMessage)
	}
	if err := validID(id); err != nil {
		return nil, err
	}
	return b.change(ctx, id, func(t *Task) error {
		if to == protocol.TaskRunning || (to == protocol.TaskBlocked && t.Held()) {
			return protocol.Errorf(protocol.CodeInvalidTaskTransition, "fleet task %s: → %s is its worker's to report (a member claims a ready task to run it)", t.ID, to)
		}
		if !protocol.TaskTransitionAllowed(t.Status, to) {
			return protocol.TaskTransitionError(t.ID, t.Status, to)
		}
		from := t.Status
		t.Status = to
		if t.Worker != nil && !t.Held() {
			t.Worker.Lease = ""
		}
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityStatus, From: from, Status: to, Message: message, Source: source})
		return nil
	})
}
