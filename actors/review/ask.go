package review

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// asker makes the calls of one job, on the job's goroutine (never the
// actor's): each a request a client could send, routed as the gateway
// routes it (the session for what it resolves, the tasks actor for the
// board), its answer awaited there with a deadline.
type asker struct {
	root    *actor.RootContext
	session *actor.PID
	routes  *kit.SessionRoutes // reads and owner calls from the read side
	tasks   *actor.PID
	loop    *actor.PID
	id      string
	within  time.Duration
	log     *slog.Logger
}

// ask sends method with params and decodes its answer into out (nil: not
// read).
func (a *asker) ask(method string, params protocol.Params, out any) error {
	if err := params.Validate(); err != nil {
		return err
	}
	m, ok := protocol.Lookup(method)
	if !ok {
		return protocol.Errorf(protocol.CodeInternal, "review: no method %s", method)
	}
	owner := a.session
	switch m.Owner {
	case protocol.OwnerTasks:
		owner = a.tasks
	case protocol.OwnerLoop:
		owner = a.loop
	}
	if owner == nil {
		return protocol.Errorf(protocol.CodeInternal, "review: nothing answers %s in this server", method)
	}
	reply := a.request(owner, &kit.Call{ID: a.id, Method: method, Params: params})
	if reply.Err != nil {
		return reply.Err
	}
	if out == nil {
		return nil
	}
	return decode(reply.Result, out)
}

// request sends call to owner from a kit.Caller, which the owner may
// watch (agent.prompt does: a future would take the watch for the
// answer), and waits for its one answer.
func (a *asker) request(owner *actor.PID, call *kit.Call) *kit.Reply {
	return kit.Ask(a.root, owner, a.routes, call, a.within, a.log)
}

// decode reads a result's wire shape into out, whichever way its owner
// gave it (a Go value or encoded once already).
func decode(r any, out any) error { return kit.DecodeResult(r, out) }

// subject is what a review call is about, resolved: a task (its worker's
// checkout) or a worktree workspace with no task.
type subject struct {
	key         string // the task id, or "checkout:" and the checkout
	taskID      string
	workspaceID string
	checkout    string
	branch      string
	task        *protocol.TaskInfo
}

// resolve finds the subject s names. A workspace a task's worker runs in
// is that task.
func (a *asker) resolve(s protocol.ReviewSubject) (*subject, error) {
	if s.TaskID != "" {
		return a.taskSubject(s.TaskID)
	}
	var ws protocol.WorkspaceInfoResult
	if err := a.ask("workspace.get", &protocol.WorkspaceTarget{WorkspaceID: s.WorkspaceID}, &ws); err != nil {
		return nil, err
	}
	id := ws.Workspace.WorkspaceID
	var list protocol.TaskList
	if err := a.ask("task.list", &protocol.TaskListParams{Status: protocol.TaskStatusFilter{protocol.TaskRunning, protocol.TaskBlocked, protocol.TaskReview}}, &list); err == nil {
		for _, t := range list.Tasks {
			if t.Worker != nil && t.Worker.WorkspaceID == id && t.Worker.Path != "" {
				return a.taskSubject(t.ID)
			}
		}
	}
	wt := ws.Workspace.Worktree
	if wt == nil || !wt.IsLinkedWorktree {
		return nil, protocol.Errorf(protocol.CodeNoReviewBranch, "workspace %s is not a linked git worktree (worktree.create makes one)", id)
	}
	sub := &subject{key: "checkout:" + wt.CheckoutPath, workspaceID: id, checkout: wt.CheckoutPath}
	var err error
	sub.branch, err = branchOf(sub.checkout)
	return sub, err
}

func (a *asker) taskSubject(id string) (*subject, error) {
	var got protocol.TaskInfoResult
	if err := a.ask("task.get", &protocol.TaskGetParams{TaskID: id, ActivityLimit: 1}, &got); err != nil {
		return nil, err
	}
	t := got.Task
	if t.Worker == nil || t.Worker.Path == "" {
		return nil, protocol.Errorf(protocol.CodeNoReviewBranch, "task %s has no worker worktree (the dispatcher makes one when it runs the task)", id)
	}
	sub := &subject{key: t.ID, taskID: t.ID, workspaceID: t.Worker.WorkspaceID, checkout: t.Worker.Path, task: &t}
	var err error
	sub.branch, err = branchOf(sub.checkout)
	return sub, err
}

// agentOf finds the agent review comments go to: the one named, the
// task's assignee, or the workspace's agent (the first, in pane order).
func (a *asker) agentOf(sub *subject, target string) (protocol.AgentInfo, error) {
	if target == "" && sub.task != nil && sub.task.Assignee != nil {
		target = sub.task.Assignee.PaneID
		if target == "" {
			target = sub.task.Assignee.Target
		}
	}
	if target != "" {
		var got protocol.AgentInfoResult
		err := a.ask("agent.get", &protocol.AgentTarget{Target: target}, &got)
		return got.Agent, err
	}
	var list protocol.AgentList
	if err := a.ask("agent.list", &protocol.FleetParams{}, &list); err != nil {
		return protocol.AgentInfo{}, err
	}
	for _, ag := range list.Agents {
		if ag.WorkspaceID == sub.workspaceID {
			return ag, nil
		}
	}
	return protocol.AgentInfo{}, protocol.Errorf(protocol.CodeNoReviewAgent, "no agent runs in workspace %s to send the comments to; name one (target)", sub.workspaceID)
}
