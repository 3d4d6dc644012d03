package dispatcher

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// recover settles, once as the dispatcher first runs, the claims a
// previous server left (the rule doc.go states): each ready, running or
// blocked task with a worker claim is checked against its pane.
func (d *Dispatcher) recover(ctx actor.Context) {
	for _, t := range d.tasks {
		if t.Worker == nil || (t.Status != statusReady && t.Status != statusRunning && t.Status != statusBlocked) {
			continue
		}
		w := &worker{task: t.ID, branch: t.Worker.Branch, workspaceID: t.Worker.WorkspaceID, paneID: t.Worker.PaneID, path: t.Worker.Path}
		d.workers[t.ID] = w
		if w.paneID == "" {
			d.vanished(ctx, w, t)
			continue
		}
		d.to(ctx, w, phaseCheck, "pane.get", map[string]any{"pane_id": w.paneID})
	}
}

// checked adopts a claimed worker whose pane is still there, in the
// workspace the claim names: a task already dispatched is watched as it
// is; one that never got its prompt has its agent started in that pane
// and is dispatched then, once. A worker whose pane is gone is vanished.
func (d *Dispatcher) checked(ctx actor.Context, w *worker, r *kit.Reply) {
	t := d.tasks[w.task]
	var res struct {
		Pane struct {
			WorkspaceID string `json:"workspace_id"`
		} `json:"pane"`
	}
	if t == nil || r.Err != nil || decodeResult(r.Result, &res) != nil || (w.workspaceID != "" && res.Pane.WorkspaceID != w.workspaceID) {
		if t == nil {
			delete(d.workers, w.task)
			return
		}
		d.vanished(ctx, w, t)
		return
	}
	if t.Status == statusReady {
		d.opts.Log.Info("dispatcher: adopting a claimed worker that was never prompted", "task", w.task, "pane", w.paneID)
		d.launch(ctx, w)
		return
	}
	// Dispatched: adopted only while its agent runs (a restart gives the
	// pane a new shell; the agents actor resumes an agent that reported
	// its session). One that does not show within AgentStart is dead.
	d.opts.Log.Info("dispatcher: checking the agent of a dispatched worker", "task", w.task, "pane", w.paneID)
	w.phase = phaseAdopt
	d.timers.After(ctx, d.opts.AgentStart, &agentBound{w: w})
	d.send(ctx, step{w: w, phase: phaseAdopt}, "agent.get", map[string]any{"target": w.paneID})
}

// adopted watches a dispatched worker whose agent runs in its pane.
func (d *Dispatcher) adopted(w *worker) {
	d.opts.Log.Info("dispatcher: adopting a dispatched worker", "task", w.task, "pane", w.paneID)
	w.phase = phaseWatch
}

// agentIn reports whether an agent.get answer shows an agent running
// (a name alone, restored with the pane, is no agent).
func agentIn(r *kit.Reply) bool {
	var res struct {
		Agent struct {
			Agent *string `json:"agent"`
		} `json:"agent"`
	}
	return r.Err == nil && decodeResult(r.Result, &res) == nil && res.Agent.Agent != nil && *res.Agent.Agent != ""
}

// vanished returns a claimed task whose worker pane is gone to ready: a
// ready one (never prompted) by releasing the claim; a running or
// blocked one is a dead worker (dead: released, counted as an attempt,
// picked again after the backoff, failed after max_attempts).
func (d *Dispatcher) vanished(ctx actor.Context, w *worker, t *taskView) {
	if t.Status != statusReady {
		// Its workspace is not closed: the claim's id may name another
		// workspace now.
		w.phase, w.workspaceID = phaseAdopt, ""
		d.dead(ctx, w, "the worker's pane "+w.paneID+" is gone (the server restarted)")
		return
	}
	why := "the worker's pane " + w.paneID + " is gone (the server restarted); returned to ready"
	if w.paneID == "" {
		why = "the worker never got a pane (the server stopped first); returned to ready"
	}
	d.opts.Log.Info("dispatcher: claimed worker vanished", "task", t.ID, "status", t.Status)
	w.phase = phaseCheck
	s := d.chain(ctx, t.ID, claimRelease(t.ID, why))
	s.done = func(ctx actor.Context) {
		if d.workers[t.ID] == w {
			delete(d.workers, t.ID)
		}
		d.fill(ctx)
	}
}
