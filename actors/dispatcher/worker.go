package dispatcher

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// start makes a worker for t: the durable record first, so a server that
// dies from here on leaves a claim its successor settles (recover).
func (d *Dispatcher) start(ctx actor.Context, t *taskView) {
	branch, err := BranchName(d.opts.BranchPrefix, t.ID, t.Title)
	if err != nil {
		d.opts.Log.Warn("dispatcher: no branch for task", "task", t.ID, "err", err)
		d.held[t.ID] = true
		return
	}
	w := &worker{task: t.ID, branch: branch}
	if t.Worker != nil {
		prior := *t.Worker
		w.prior = &prior
	}
	d.workers[t.ID] = w
	d.opts.Log.Info("dispatcher: claiming task", "task", t.ID, "branch", branch)
	d.to(ctx, w, phaseClaim, "task.claim", map[string]any{"task_id": t.ID, "worker": map[string]any{"branch": branch}})
}

// to moves w to phase p and makes that phase's call.
func (d *Dispatcher) to(ctx actor.Context, w *worker, p phase, method string, params any) {
	w.phase = p
	d.send(ctx, step{w: w, phase: p}, method, params)
}

// advance takes the answer of w's call in its phase and makes the next.
func (d *Dispatcher) advance(ctx actor.Context, w *worker, r *api.Reply) {
	t := d.tasks[w.task]
	switch w.phase {
	case phaseClaim:
		if r.Err != nil {
			d.giveUp(ctx, w, false, "claim refused", r.Err)
			return
		}
		d.noteTask(r)
		if w.prior != nil && w.prior.WorkspaceID != "" {
			// A retry: the previous worker's workspace goes; its branch,
			// and what it committed, stay for the new one.
			d.to(ctx, w, phaseCloseOld, "workspace.close", map[string]any{"workspace_id": w.prior.WorkspaceID})
			return
		}
		d.create(ctx, w, t)
	case phaseCloseOld:
		if r.Err != nil && errorCode(r.Err) != protocol.CodeWorkspaceNotFound {
			d.opts.Log.Info("dispatcher: previous worker's workspace not closed", "task", w.task, "err", r.Err)
		}
		d.create(ctx, w, t)
	case phaseCreate, phaseOpen:
		if r.Err != nil {
			if w.phase == phaseCreate && t != nil {
				// The branch may have a worktree already (an earlier attempt).
				d.to(ctx, w, phaseOpen, "worktree.open", map[string]any{"cwd": t.Cwd, "branch": w.branch, "label": w.task})
				return
			}
			d.giveUp(ctx, w, true, "no worktree", r.Err)
			return
		}
		var res struct {
			Workspace struct {
				WorkspaceID string `json:"workspace_id"`
			} `json:"workspace"`
			RootPane struct {
				PaneID string `json:"pane_id"`
			} `json:"root_pane"`
			Worktree struct {
				Path string `json:"path"`
			} `json:"worktree"`
		}
		if err := decodeResult(r.Result, &res); err != nil || res.RootPane.PaneID == "" {
			d.giveUp(ctx, w, true, "no worker pane", err)
			return
		}
		w.workspaceID, w.paneID, w.path = res.Workspace.WorkspaceID, res.RootPane.PaneID, res.Worktree.Path
		d.to(ctx, w, phaseRecord, "task.claim", map[string]any{"task_id": w.task, "worker": map[string]any{
			"workspace_id": w.workspaceID, "pane_id": w.paneID, "branch": w.branch, "path": w.path}})
	case phaseRecord:
		if r.Err != nil {
			d.giveUp(ctx, w, true, "claim not recorded", r.Err)
			return
		}
		d.noteTask(r)
		d.launch(ctx, w)
	case phaseLaunch:
		if r.Err != nil {
			d.giveUp(ctx, w, true, "agent not launched", r.Err)
			return
		}
		w.phase = phaseAwaitAgent
		if w.agent {
			d.settle(ctx, w)
			return
		}
		// Recognised before this phase began? Ask once; events do the rest.
		d.send(ctx, step{w: w, phase: phaseAwaitAgent}, "agent.get", map[string]any{"target": w.paneID})
	case phaseAwaitAgent:
		if r.Err == nil {
			d.settle(ctx, w)
		}
	case phaseSettle:
		if r.Err != nil {
			d.giveUp(ctx, w, true, "agent did not settle", r.Err)
			return
		}
		d.to(ctx, w, phaseName, "agent.rename", map[string]any{"target": w.paneID, "name": w.task})
	case phaseName:
		w.target = w.task
		if r.Err != nil {
			w.target = w.paneID // a name already taken: the pane still names it
		}
		params := map[string]any{"task_id": w.task, "target": w.target}
		d.to(ctx, w, phaseDispatch, "task.dispatch", params)
	case phaseDispatch:
		if r.Err != nil {
			d.giveUp(ctx, w, true, "dispatch refused", r.Err)
			return
		}
		d.noteTask(r)
		w.phase = phaseWatch
		d.opts.Log.Info("dispatcher: task dispatched", "task", w.task, "pane", w.paneID, "branch", w.branch)
		if w.agentStatus == protocol.StatusBlocked { // it asked before the dispatch was answered
			d.agentStatus(ctx, w, w.agentStatus)
		}
	case phaseCheck:
		d.checked(ctx, w, r)
	}
}

func (d *Dispatcher) create(ctx actor.Context, w *worker, t *taskView) {
	if t == nil {
		d.giveUp(ctx, w, true, "task gone", nil)
		return
	}
	d.to(ctx, w, phaseCreate, "worktree.create", map[string]any{"cwd": t.Cwd, "branch": w.branch, "label": w.task})
}

// launch types the agent's command line into the worker's pane.
func (d *Dispatcher) launch(ctx actor.Context, w *worker) {
	t := d.tasks[w.task]
	title := ""
	if t != nil {
		title = t.Title
	}
	w.agent = false
	d.to(ctx, w, phaseLaunch, "pane.send_input", map[string]any{"pane_id": w.paneID, "text": CommandLine(d.opts.Agent, w.task, title), "keys": []string{"Enter"}})
}

// settle waits until the recognised agent is idle, ready for its prompt.
func (d *Dispatcher) settle(ctx actor.Context, w *worker) {
	if w.phase != phaseAwaitAgent {
		return
	}
	d.to(ctx, w, phaseSettle, "agent.wait", map[string]any{"target": w.paneID, "until": []string{"idle"}, "timeout_ms": agentReadyMS})
}

// giveUp ends a worker that could not be made. Its claim is released
// (release: the task is still ready and nobody else's) and the task is
// held back, so a task that cannot start is not tried in a loop; it is
// picked again once its status changes.
func (d *Dispatcher) giveUp(ctx actor.Context, w *worker, release bool, why string, err error) {
	d.opts.Log.Warn("dispatcher: worker given up", "task", w.task, "why", why, "err", err)
	delete(d.workers, w.task)
	d.held[w.task] = true
	if release {
		d.chain(ctx, w.task, claimRelease(w.task))
	}
	d.fill(ctx)
}

// noteTask keeps the task an answer carries.
func (d *Dispatcher) noteTask(r *api.Reply) {
	var res struct {
		Task *taskView `json:"task"`
	}
	if r.Err == nil && decodeResult(r.Result, &res) == nil && res.Task != nil && res.Task.ID != "" {
		d.tasks[res.Task.ID] = res.Task
	}
}

func claimRelease(id string) stepFn {
	return func(*api.Reply) (string, any) {
		return "task.claim", map[string]any{"task_id": id, "release": true}
	}
}

func report(id, status string, message func(prev *api.Reply) string) stepFn {
	return func(prev *api.Reply) (string, any) {
		p := map[string]any{"task_id": id, "status": status}
		if message != nil {
			if m := message(prev); m != "" {
				p["message"] = m
			}
		}
		return "task.report", p
	}
}

// stepFn makes a sequence's next call from the answer before it (nil for
// the first); "" ends the sequence.
type stepFn func(prev *api.Reply) (method string, params any)

// sequence is calls made one after another whatever each answers (each
// refusal is logged): a report and what follows it.
type sequence struct {
	task  string
	steps []stepFn
	done  func(ctx actor.Context)
}

// chain runs steps in order for task.
func (d *Dispatcher) chain(ctx actor.Context, task string, steps ...stepFn) *sequence {
	s := &sequence{task: task, steps: steps}
	d.sequenceStep(ctx, s, nil)
	return s
}

func (d *Dispatcher) sequenceStep(ctx actor.Context, s *sequence, prev *api.Reply) {
	if prev != nil && prev.Err != nil {
		d.opts.Log.Info("dispatcher: call refused", "task", s.task, "err", prev.Err)
	}
	for len(s.steps) > 0 {
		next := s.steps[0]
		s.steps = s.steps[1:]
		if method, params := next(prev); method != "" {
			d.send(ctx, s, method, params)
			return
		}
	}
	if s.done != nil {
		s.done(ctx)
	}
}
