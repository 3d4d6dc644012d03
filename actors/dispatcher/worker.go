package dispatcher

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// start makes a worker for t: the durable record first, so a server that
// dies from here on leaves a claim its successor settles (recover).
func (d *Dispatcher) start(ctx actor.Context, t *taskView) {
	branch, err := BranchName(d.opts.BranchPrefix, t.ID, t.Title)
	if err != nil {
		// The prefix is the config's: held until the task changes.
		why := "not picked by the dispatcher: no branch name: " + err.Error()
		d.opts.Log.Warn("dispatcher: no branch for task", "task", t.ID, "err", err)
		d.held[t.ID] = true
		d.chain(ctx, t.ID, report(t.ID, t.Status, func(*kit.Reply) string { return why }))
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
func (d *Dispatcher) advance(ctx actor.Context, w *worker, r *kit.Reply) {
	t := d.tasks[w.task]
	switch w.phase {
	case phaseClaim:
		if r.Err != nil {
			d.giveUp(ctx, w, false, "claim refused", r.Err)
			return
		}
		w.attempt = 1 + givenUp(r)
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
				w.createErr = r.Err
				d.to(ctx, w, phaseOpen, "worktree.open", map[string]any{"cwd": t.Cwd, "branch": w.branch, "label": w.task})
				return
			}
			why := "no worktree"
			if w.createErr != nil { // the open's error alone hides why the create failed
				why += ": create: " + errText(w.createErr) + "; open"
			}
			d.giveUp(ctx, w, true, why, r.Err)
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
	case phaseShell:
		d.typeLaunch(ctx, w, r)
	case phaseLaunch:
		if r.Err != nil {
			d.giveUp(ctx, w, true, "agent not launched", r.Err)
			return
		}
		w.phase = phaseAwaitAgent
		d.timers.After(ctx, d.opts.AgentStart, &agentBound{w: w})
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
	case phaseAdopt:
		if agentIn(r) {
			d.adopted(w)
		}
	}
}

func (d *Dispatcher) create(ctx actor.Context, w *worker, t *taskView) {
	if t == nil {
		d.giveUp(ctx, w, true, "task gone", nil)
		return
	}
	d.to(ctx, w, phaseCreate, "worktree.create", map[string]any{"cwd": t.Cwd, "branch": w.branch, "label": w.task})
}

// launch types the agent's command line into the worker's pane, quoted
// for the shell running there: first pane.process_info names it.
func (d *Dispatcher) launch(ctx actor.Context, w *worker) {
	w.agent = false
	d.to(ctx, w, phaseShell, "pane.process_info", map[string]any{"pane_id": w.paneID})
}

// typeLaunch types the command line once process_info answered r.
func (d *Dispatcher) typeLaunch(ctx actor.Context, w *worker, r *kit.Reply) {
	if r.Err != nil {
		d.giveUp(ctx, w, true, "the worker's shell is not known", r.Err)
		return
	}
	title := ""
	if t := d.tasks[w.task]; t != nil {
		title = t.Title
	}
	line, err := CommandLine(runningShell(r), d.opts.Agent, w.task, title)
	if err != nil {
		d.giveUp(ctx, w, true, "agent not launched", err)
		return
	}
	d.to(ctx, w, phaseLaunch, "pane.send_input", map[string]any{"pane_id": w.paneID, "text": line, "keys": []string{"Enter"}})
}

// runningShell is the name of the program in front of the pane's
// terminal when it is the pane's shell (the leader of the job in front),
// "" when process_info does not say.
func runningShell(r *kit.Reply) string {
	var res struct {
		ProcessInfo protocol.PaneProcessInfo `json:"process_info"`
	}
	if decodeResult(r.Result, &res) != nil {
		return ""
	}
	info := res.ProcessInfo
	if info.ForegroundProcessGroupID == nil || info.ShellPID == nil || *info.ForegroundProcessGroupID != *info.ShellPID {
		return ""
	}
	for _, p := range info.ForegroundProcesses {
		if p.PID == *info.ForegroundProcessGroupID {
			return p.Name
		}
	}
	return ""
}

// settle waits until the recognised agent is idle, ready for its prompt.
func (d *Dispatcher) settle(ctx actor.Context, w *worker) {
	if w.phase != phaseAwaitAgent {
		return
	}
	d.to(ctx, w, phaseSettle, "agent.wait", map[string]any{"target": w.paneID, "until": []string{"idle"}, "timeout_ms": agentReadyMS})
}

// agentLate gives up a worker whose agent is still not recognised at
// its bound (a command not found, a program that is no agent).
func (d *Dispatcher) agentLate(ctx actor.Context, w *worker) {
	if d.workers[w.task] != w {
		return
	}
	if w.phase == phaseAdopt {
		d.dead(ctx, w, "the worker's agent is gone (the server restarted) and did not come back within "+d.opts.AgentStart.String())
		return
	}
	if w.phase != phaseAwaitAgent {
		return
	}
	d.giveUp(ctx, w, true, "the agent was not recognised in its pane within "+d.opts.AgentStart.String(), nil)
}

// givenUpMark starts the message of a given-up worker's release: the
// attempts are counted from the task's history (givenUp), so the count
// survives a restart.
const givenUpMark = "given up (attempt "

// givenUp counts the workers given up on the task a claim (or task.get)
// answered since its status was last changed by someone other than the
// dispatcher (a person's retry starts the count again; the dispatcher's
// own failed → ready of a dead worker does not).
func givenUp(r *kit.Reply) int {
	var res struct {
		Task struct {
			Activities []protocol.TaskActivity `json:"activities"`
		} `json:"task"`
	}
	if r.Err != nil || decodeResult(r.Result, &res) != nil {
		return 0
	}
	n := 0
	for _, a := range res.Task.Activities {
		switch {
		case a.Kind == protocol.ActivityStatus && a.Source != source:
			n = 0
		case a.Kind == protocol.ActivityUnclaimed && strings.HasPrefix(a.Message, givenUpMark):
			n++
		}
	}
	return n
}

// giveUp ends a worker that could not be made, saying why where a person
// looks: a warn log line and the task's activity (the release's message,
// with the pane's last lines once the agent was typed). Its claim is
// released (release: the task is still ready and nobody else's) and its
// workspace closed (the branch and worktree stay). The task is held
// back, then retried after the backoff (retry_delay, doubled per
// attempt) until max_attempts, when it moves to failed with the reason.
// A refused claim is no attempt: the task is held until its status
// changes.
func (d *Dispatcher) giveUp(ctx actor.Context, w *worker, release bool, why string, err error) {
	if err != nil {
		why += ": " + errText(err)
	}
	delete(d.workers, w.task)
	d.held[w.task] = true
	if !release {
		d.opts.Log.Warn("dispatcher: worker given up", "task", w.task, "why", why)
		msg := "not picked by the dispatcher: " + why
		if t := d.tasks[w.task]; t != nil {
			d.chain(ctx, w.task, report(w.task, t.Status, func(*kit.Reply) string { return msg }))
		}
		d.fill(ctx)
		return
	}
	attempt := max(w.attempt, 1)
	last := attempt >= d.opts.MaxAttempts
	d.opts.Log.Warn("dispatcher: worker given up", "task", w.task, "attempt", attempt, "max_attempts", d.opts.MaxAttempts, "why", why)
	reason := func(prev *kit.Reply) string {
		if w.paneID != "" && w.phase >= phaseLaunch {
			if q := quote(prev, lastLines, ""); q != "" {
				return why + "; the pane shows:\n" + q
			}
		}
		return why
	}
	var said string
	steps := []stepFn{}
	if w.paneID != "" && w.phase >= phaseLaunch {
		steps = append(steps, readPane(w.paneID, protocol.SourceRecent))
	}
	steps = append(steps, func(prev *kit.Reply) (string, any) {
		said = reason(prev)
		return claimRelease(w.task, fmt.Sprintf("%s%d of %d): %s", givenUpMark, attempt, d.opts.MaxAttempts, said))(prev)
	})
	if w.workspaceID != "" {
		id := w.workspaceID
		steps = append(steps, func(*kit.Reply) (string, any) {
			return "workspace.close", map[string]any{"workspace_id": id}
		})
	}
	if last {
		steps = append(steps, report(w.task, statusFailed, func(*kit.Reply) string {
			if attempt == 1 {
				return "the dispatcher gave up after 1 attempt: " + said
			}
			return fmt.Sprintf("the dispatcher gave up after %d attempts: %s", attempt, said)
		}))
	}
	s := d.chain(ctx, w.task, steps...)
	s.done = func(ctx actor.Context) {
		if last {
			d.fill(ctx)
			return
		}
		// The next worker only once the release is in: it cannot land on
		// the new claim.
		d.timers.After(ctx, backoff(d.opts.RetryDelay, attempt), &retryDue{task: w.task})
	}
	d.fill(ctx)
}

// dead releases a dispatched worker whose agent or pane is gone (the
// agent exited, the pane closed, or after a restart the agent did not
// come back): its task goes back to ready for another worker, through the
// give-up machinery — the task is reported failed with why and the
// pane's last lines, the claim released ("given up (attempt N of M): …",
// which counts the attempt), the workspace closed (branch and worktree
// stay) and, unless that was the last attempt, the task reported ready
// and picked again after the backoff. The worker holds its slot until
// this is done, so the release cannot land on a new claim.
func (d *Dispatcher) dead(ctx actor.Context, w *worker, why string) {
	if d.workers[w.task] != w || w.phase == phaseRelease {
		return
	}
	t := d.tasks[w.task]
	if t == nil || (t.Status != statusRunning && t.Status != statusBlocked) {
		delete(d.workers, w.task)
		d.fill(ctx)
		return
	}
	w.phase = phaseRelease
	attempt, last, said := w.attempt, false, why
	var steps []stepFn
	if attempt == 0 { // adopted after a restart: counted from the history
		steps = append(steps, func(*kit.Reply) (string, any) {
			return "task.get", map[string]any{"task_id": w.task, "activity_limit": protocol.MaxTaskActivities}
		})
	}
	steps = append(steps,
		func(prev *kit.Reply) (string, any) {
			if attempt == 0 {
				attempt = givenUp(prev) + 1
			}
			last = attempt >= d.opts.MaxAttempts
			d.opts.Log.Warn("dispatcher: worker gone", "task", w.task, "attempt", attempt, "max_attempts", d.opts.MaxAttempts, "why", why)
			return readPane(w.paneID, protocol.SourceRecent)(prev)
		},
		report(w.task, statusFailed, func(prev *kit.Reply) string {
			if q := quote(prev, lastLines, ""); q != "" {
				said = why + "; the pane shows:\n" + q
			}
			if last {
				return fmt.Sprintf("the dispatcher gave up after %d attempt%s: %s", attempt, plural(attempt), said)
			}
			return said
		}),
		func(prev *kit.Reply) (string, any) {
			return claimRelease(w.task, fmt.Sprintf("%s%d of %d): %s", givenUpMark, attempt, d.opts.MaxAttempts, said))(prev)
		})
	if w.workspaceID != "" {
		id := w.workspaceID
		steps = append(steps, func(*kit.Reply) (string, any) {
			return "workspace.close", map[string]any{"workspace_id": id}
		})
	}
	steps = append(steps, func(prev *kit.Reply) (string, any) {
		if last {
			return "", nil
		}
		return report(w.task, statusReady, func(*kit.Reply) string {
			return fmt.Sprintf("returned to ready for another worker (attempt %d of %d ended: %s)", attempt, d.opts.MaxAttempts, why)
		})(prev)
	})
	s := d.chain(ctx, w.task, steps...)
	s.done = func(ctx actor.Context) {
		if d.workers[w.task] == w {
			delete(d.workers, w.task)
		}
		if !last {
			d.waiting[w.task] = true
			d.timers.After(ctx, backoff(d.opts.RetryDelay, attempt), &retryDue{task: w.task})
		}
		d.fill(ctx)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// backoff is the wait before attempt+1: delay doubled per attempt made,
// at most an hour.
func backoff(delay time.Duration, attempt int) time.Duration {
	if delay < 0 {
		return 0
	}
	for i := 1; i < attempt && delay < time.Hour; i++ {
		delay *= 2
	}
	return min(delay, time.Hour)
}

// errText is an error's words (an API error's message, without its code).
func errText(err error) string {
	if e, ok := err.(*protocol.Error); ok {
		return e.Message
	}
	return err.Error()
}

// noteTask keeps the task an answer carries.
func (d *Dispatcher) noteTask(r *kit.Reply) {
	var res struct {
		Task *taskView `json:"task"`
	}
	if r.Err == nil && decodeResult(r.Result, &res) == nil && res.Task != nil && res.Task.ID != "" {
		d.tasks[res.Task.ID] = res.Task
	}
}

// claimRelease releases a task's claim; message (why) is its unclaimed
// activity's.
func claimRelease(id, message string) stepFn {
	return func(*kit.Reply) (string, any) {
		p := map[string]any{"task_id": id, "release": true}
		if message != "" {
			p["message"] = message
		}
		return "task.claim", p
	}
}

// source names the dispatcher in the reports it makes (the history's
// source), which givenUp tells from a person's.
const source = "dispatcher"

func report(id, status string, message func(prev *kit.Reply) string) stepFn {
	return func(prev *kit.Reply) (string, any) {
		p := map[string]any{"task_id": id, "status": status, "source": source}
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
type stepFn func(prev *kit.Reply) (method string, params any)

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

func (d *Dispatcher) sequenceStep(ctx actor.Context, s *sequence, prev *kit.Reply) {
	if prev != nil && prev.Err != nil {
		d.opts.Log.Warn("dispatcher: call refused", "task", s.task, "err", prev.Err)
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
