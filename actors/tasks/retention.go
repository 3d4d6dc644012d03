package tasks

import (
	"slices"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// Retention: a done or cancelled task leaves the board by task.remove,
// or when more than keepDone of them are kept (the oldest finished go
// first) or it finished more than keepDays ago. A finished task a backlog
// task depends on stays: that task's move to ready reads its status.

// Retention is [tasks] keep_done and keep_done_days; 0 turns a rule off.
type Retention struct {
	KeepDone int
	KeepDays int
}

// final reports whether a task of status s is done with for good.
func final(s string) bool { return s == protocol.TaskDone || s == protocol.TaskCancelled }

// dependents lists the backlog tasks that depend on task id.
func (b *board) dependents(id string) []string {
	var out []string
	for _, n := range b.order {
		t := b.tasks[n]
		if t.Status == protocol.TaskBacklog && slices.Contains(t.DependsOn, id) {
			out = append(out, t.ID)
		}
	}
	return out
}

// remove takes a done or cancelled task off the board.
func (b *board) remove(id string) (change, error) {
	var c change
	t, err := b.get(id)
	if err != nil {
		return c, err
	}
	if !final(t.Status) {
		return c, protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s; only a done or cancelled task is removed (cancel it first: herdr task report %s cancelled)", id, t.Status, id)
	}
	if deps := b.dependents(id); len(deps) > 0 {
		return c, protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is a dependency of backlog %s; remove or cancel those first", id, strings.Join(deps, ", "))
	}
	b.drop(t, "removed", &c)
	return c, nil
}

// drop takes t off the board and adds its task_removed.
func (b *board) drop(t *protocol.TaskInfo, reason string, c *change) {
	n, _ := protocol.TaskNumber(t.ID)
	delete(b.tasks, n)
	if i, found := slices.BinarySearch(b.order, n); found {
		b.order = slices.Delete(b.order, i, i+1)
	}
	b.dirty[n] = true
	c.add(protocol.TaskRemovedEvent{TaskID: t.ID, Status: t.Status, Reason: reason})
}

// retain removes the finished tasks r does not keep: those finished more
// than KeepDays ago, then the oldest past KeepDone.
func (b *board) retain(r Retention) change {
	var c change
	if r.KeepDone <= 0 && r.KeepDays <= 0 {
		return c
	}
	needed := map[string]bool{}
	var done []*protocol.TaskInfo
	for _, n := range b.order {
		t := b.tasks[n]
		if final(t.Status) {
			done = append(done, t)
		} else if t.Status == protocol.TaskBacklog {
			for _, d := range t.DependsOn {
				needed[d] = true
			}
		}
	}
	// Oldest finished first (a task's last change is its finish).
	slices.SortStableFunc(done, func(x, y *protocol.TaskInfo) int {
		switch {
		case x.UpdatedMS < y.UpdatedMS:
			return -1
		case x.UpdatedMS > y.UpdatedMS:
			return 1
		}
		return 0
	})
	cutoff := int64(-1 << 63)
	if r.KeepDays > 0 {
		cutoff = b.now() - int64(r.KeepDays)*int64(24*time.Hour/time.Millisecond)
	}
	over := 0
	if r.KeepDone > 0 {
		over = len(done) - r.KeepDone
	}
	for i, t := range done {
		if needed[t.ID] || (i >= over && t.UpdatedMS >= cutoff) {
			continue
		}
		b.drop(t, "retention", &c)
	}
	return c
}
