package dispatcher

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// questionLines and lastLines bound what a report quotes of the screen.
const (
	questionLines = 8
	lastLines     = 12
	quoteMax      = 2000
)

// onEvent follows one bus event: the board's changes, and the agents and
// panes of its workers.
func (d *Dispatcher) onEvent(ctx actor.Context, ev protocol.EventData) {
	switch ev := ev.(type) {
	case protocol.TaskCreatedEvent:
		d.taskEvent(ctx, &ev.Task)
	case protocol.TaskUpdatedEvent:
		d.taskEvent(ctx, &ev.Task)
	case protocol.PaneAgentDetectedEvent:
		w := d.byPane(ev.PaneID)
		if w == nil {
			return
		}
		if ev.Agent != nil && *ev.Agent != "" {
			d.agentSeen(ctx, w)
		} else if w.phase == phaseWatch {
			d.dead(ctx, w, "the worker's agent stopped")
		}
	case protocol.PaneAgentStatusChangedEvent:
		w := d.byPane(ev.PaneID)
		if w == nil {
			return
		}
		w.agentStatus = ev.AgentStatus
		if w.phase != phaseWatch {
			if ev.Agent != nil && *ev.Agent != "" {
				d.agentSeen(ctx, w)
			}
			return
		}
		d.agentStatus(ctx, w, ev.AgentStatus)
	case protocol.PaneRefEvent:
		if ev.Kind != "pane_exited" && ev.Kind != "pane_closed" {
			return
		}
		w := d.byPane(ev.PaneID)
		switch {
		case w == nil:
		case w.phase == phaseWatch || w.phase == phaseAdopt:
			d.dead(ctx, w, "the worker's pane exited")
		case w.phase >= phaseLaunch && w.phase < phaseWatch:
			d.giveUp(ctx, w, true, "worker pane exited before the dispatch", nil)
		}
	}
}

// taskEvent keeps the news of a task_created or task_updated.
func (d *Dispatcher) taskEvent(ctx actor.Context, t *protocol.TaskInfo) {
	if t.ID != "" {
		d.taskChanged(ctx, viewOf(t))
	}
}

// byPane is the worker in pane id, or nil.
func (d *Dispatcher) byPane(id string) *worker {
	if id == "" {
		return nil
	}
	for _, w := range d.workers {
		if w.paneID == id {
			return w
		}
	}
	return nil
}

// taskChanged keeps a task's news. A worker whose task left running and
// blocked is done (review keeps its worktree for the reviewer; failed and
// cancelled keep it too); a status change lets a held task be picked
// again; either may make room for a ready task.
func (d *Dispatcher) taskChanged(ctx actor.Context, t *taskView) {
	prev := d.tasks[t.ID]
	d.tasks[t.ID] = t
	if prev == nil || prev.Status != t.Status {
		delete(d.held, t.ID)
	}
	if w := d.workers[t.ID]; w != nil && w.phase == phaseWatch && t.Status != statusRunning && t.Status != statusBlocked {
		d.opts.Log.Info("dispatcher: worker done", "task", t.ID, "status", t.Status, "path", w.path)
		delete(d.workers, t.ID)
	}
	d.fill(ctx)
}

// agentSeen notes that w's pane runs its agent; once typed, the agent is
// waited for until it is idle.
func (d *Dispatcher) agentSeen(ctx actor.Context, w *worker) {
	w.agent = true
	switch w.phase {
	case phaseAwaitAgent:
		d.settle(ctx, w)
	case phaseAdopt:
		d.adopted(w)
	}
}

// agentStatus reports a running worker's agent that asks a question as
// blocked (the question as the message), and one that goes on after the
// answer as running again.
func (d *Dispatcher) agentStatus(ctx actor.Context, w *worker, st protocol.AgentStatus) {
	t := d.tasks[w.task]
	if t == nil || w.reporting {
		return
	}
	switch {
	case st == protocol.StatusBlocked && t.Status == statusRunning:
		w.reporting = true
		s := d.chain(ctx, w.task,
			readPane(w.paneID, protocol.SourceVisible),
			report(w.task, statusBlocked, func(prev *kit.Reply) string {
				return quote(prev, questionLines, "the worker's agent is waiting for an answer")
			}))
		s.done = func(actor.Context) { w.reporting = false }
	case st == protocol.StatusWorking && t.Status == statusBlocked:
		w.reporting = true
		s := d.chain(ctx, w.task, report(w.task, statusRunning, func(*kit.Reply) string { return "answered; the worker's agent is working again" }))
		s.done = func(actor.Context) { w.reporting = false }
	}
}

func readPane(paneID, source string) stepFn {
	return func(*kit.Reply) (string, any) {
		return "pane.read", map[string]any{"pane_id": paneID, "source": source, "lines": 200, "strip_ansi": true}
	}
}

// quote is the last n non-blank lines a pane.read answered, else dflt.
func quote(r *kit.Reply, n int, dflt string) string {
	if r == nil || r.Err != nil {
		return dflt
	}
	var res struct {
		Read struct {
			Text string `json:"text"`
		} `json:"read"`
	}
	if decodeResult(r.Result, &res) != nil {
		return dflt
	}
	return LastLines(res.Read.Text, n, dflt)
}

// LastLines is the last n non-blank lines of text, each trimmed on the
// right, at most quoteMax bytes (the oldest dropped first); dflt when
// there are none.
func LastLines(text string, n int, dflt string) string {
	var keep []string
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimRight(lines[i], " \t\r"); strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	size := 0
	for i, l := range keep {
		if size+len(l)+1 > quoteMax {
			keep = keep[:i]
			break
		}
		size += len(l) + 1
	}
	if len(keep) == 0 {
		return dflt
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return strings.Join(keep, "\n")
}
