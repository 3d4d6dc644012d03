package dispatcher

import (
	"sort"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// taskView is what the dispatcher reads of a task (protocol.TaskInfo's
// wire shape; decoded from the answers and events, so only these fields).
type taskView struct {
	ID          string      `json:"id"`
	Title       string      `json:"title"`
	Description string      `json:"description,omitempty"`
	Cwd         string      `json:"cwd,omitempty"`
	Priority    int64       `json:"priority"`
	Status      string      `json:"status"`
	Attempts    int         `json:"attempts"`
	Worker      *workerView `json:"worker,omitempty"`
}

// viewOf is what the dispatcher keeps of a task an event carries (a copy:
// the event's data is shared with every subscriber).
func viewOf(t *protocol.TaskInfo) *taskView {
	v := &taskView{ID: t.ID, Title: t.Title, Description: t.Description, Cwd: t.Cwd, Priority: t.Priority, Status: t.Status, Attempts: t.Attempts}
	if w := t.Worker; w != nil {
		v.Worker = &workerView{WorkspaceID: w.WorkspaceID, PaneID: w.PaneID, Branch: w.Branch, Path: w.Path}
	}
	return v
}

// workerView is a task's worker claim.
type workerView struct {
	WorkspaceID string `json:"workspace_id,omitempty"`
	PaneID      string `json:"pane_id,omitempty"`
	Branch      string `json:"branch,omitempty"`
	Path        string `json:"path,omitempty"`
}

// Task statuses the dispatcher acts on.
const (
	statusReady   = "ready"
	statusRunning = "running"
	statusBlocked = "blocked"
	statusReview  = "review"
	statusFailed  = "failed"
)

// idNumber is the number of "task-N" (0 for anything else, sorted first).
func idNumber(id string) uint64 {
	n, _ := strconv.ParseUint(strings.TrimPrefix(id, "task-"), 10, 64)
	return n
}

// pick is the picking rule: the ready tasks with a folder to work in
// that have no worker of this dispatcher's and are not held back, by
// priority (lower first) then id number, at most free of them. The board
// keeps a task whose dependencies are not done out of ready, so ready is
// the whole dependency rule.
func pick(tasks map[string]*taskView, busy, held map[string]bool, free int) []*taskView {
	if free <= 0 {
		return nil
	}
	var ready []*taskView
	for id, t := range tasks {
		if t.Status == statusReady && t.Cwd != "" && !busy[id] && !held[id] {
			ready = append(ready, t)
		}
	}
	sort.Slice(ready, func(i, j int) bool {
		a, b := ready[i], ready[j]
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if na, nb := idNumber(a.ID), idNumber(b.ID); na != nb {
			return na < nb
		}
		return a.ID < b.ID
	})
	if len(ready) > free {
		ready = ready[:free]
	}
	return ready
}
