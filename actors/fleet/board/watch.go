package board

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/protocol"
)

// Change is one thing a board watcher is told: a task as it now is, a
// task removed, or that the tasks there were at the start are all in.
type Change struct {
	Task    *Task
	Removed string
	// Current marks the end of the initial tasks: from here on each
	// change is news (task_created, task_updated, task_removed).
	Current bool
}

// Watch delivers every task on the board, then Current, then every change
// as the hub stores it, until stop is called or ctx ends. deliver runs on
// a goroutine of the watch and must only hand the change on (a fleet
// actor keeps its view of the board from these, for task.list --fleet,
// the boards and ClaimFirst). A task that cannot be decoded is skipped.
func (b *Board) Watch(ctx context.Context, deliver func(Change)) (stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	w, err := b.kv.WatchFiltered(ctx, []string{"task.*"})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("fleet board: watch: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				switch {
				case e == nil:
					deliver(Change{Current: true})
				case e.Operation() != jetstream.KeyValuePut:
					deliver(Change{Removed: strings.TrimPrefix(e.Key(), "task.")})
				default:
					if t, err := decode(e); err == nil {
						deliver(Change{Task: t})
					}
				}
			}
		}
	}()
	return func() {
		cancel()
		_ = w.Stop()
		<-done
	}, nil
}

// ClaimFirst claims for m the first ready task of tasks (a view kept by
// Watch, in List's order) that m is eligible for, skipping those another
// member took first. It does not check m's capacity (the caller knows
// what it holds). No task to take is a nil task and no error.
func (b *Board) ClaimFirst(ctx context.Context, m Member, tasks []*Task) (*Task, Lease, error) {
	if err := m.validate(); err != nil {
		return nil, Lease{}, err
	}
	for _, t := range tasks {
		if t.Status != protocol.TaskReady || !m.Eligible(t) {
			continue
		}
		got, l, err := b.Claim(ctx, t.ID, m)
		var pe *protocol.Error
		if errors.As(err, &pe) && (pe.Code == protocol.CodeTaskNotReady || pe.Code == protocol.CodeTaskNotFound) {
			continue // another member was first, or it was removed
		}
		return got, l, err
	}
	return nil, Lease{}, nil
}

// SortTasks puts tasks in List's order: by priority, highest first, then
// by age.
func SortTasks(ts []*Task) { sortTasks(ts) }
