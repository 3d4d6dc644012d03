package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the task methods; each handler answers its call exactly
// once, now or (attach, dispatch) when its agent child reports back.
var Registry = api.NewRegistry(protocol.OwnerTasks, "actors/tasks", map[string]func(*Tasks, actor.Context, *api.Call) *api.Reply{
	"task.create":   (*Tasks).create,
	"task.list":     (*Tasks).list,
	"task.get":      (*Tasks).get,
	"task.attach":   (*Tasks).attach,
	"task.dispatch": (*Tasks).dispatch,
	"task.report":   (*Tasks).report,
	"task.claim":    (*Tasks).claim,
	"task.run":      (*Tasks).run,
})

// Options configure the tasks actor.
type Options struct {
	// Events is the bus: task events are published there, and the
	// assignees' agent status changes read from it.
	Events *actor.PID
	// Session resolves agent targets and carries prompts (agent.get,
	// agent.prompt), asked by a short-lived child per call.
	Session *actor.PID
	// Keeper writes the board into session.json; nil keeps nothing.
	Keeper *actor.PID
	// Restore is the board read from session.json or carried by a live
	// handoff; nil starts empty.
	Restore *model.SavedTasks
	// BinName is how a prompt tells the agent to call herdr ("herdr").
	BinName string
	Log     *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Run asks the dispatcher to run (task.run); MaxRunning 0 keeps its
// configured bound. The dispatcher answers nothing: task.run is answered
// ok once it is sent.
type Run struct {
	MaxRunning int
}

// SetDispatcher names the dispatcher, which is spawned after the tasks
// actor (it calls it); until then task.run answers feature_disabled.
type SetDispatcher struct {
	PID *actor.PID
}

// Dispatching is the dispatcher's word that it runs (or stopped): while
// it runs, task.create refuses a task without a cwd, which it could not
// make a worktree for.
type Dispatching struct {
	On bool
}

// Export asks for the board, for a live handoff; the answer is a
// *model.SavedTasks.
type Export struct{}

// Tasks is the tasks actor: the only owner of the board.
type Tasks struct {
	opts       Options
	board      *board
	dispatcher *actor.PID
	// dispatching: the dispatcher runs (Dispatching).
	dispatching bool
	// inFlight marks the tasks an attach or dispatch is resolving its
	// agent for: a second one on the same task is refused meanwhile.
	inFlight map[string]bool
	// askers are the children still owing their call an answer, by
	// actor id: one that stops before it reports (it failed) is answered
	// internal_error here, so every call is answered once.
	askers map[string]*asker
	// durable holds the answers of claims until the keeper says a file
	// holding them is on disk (keeper.TasksSaved), by sync token.
	durable  map[uint64]heldReply
	lastSync uint64
}

// heldReply is an answer waiting for its change to reach the disk.
type heldReply struct {
	to    *actor.PID
	reply *api.Reply
	// prompt, for a dispatch, is what its asker sends once the running
	// task is on disk (a kill before cannot leave a prompted agent on a
	// task the next server thinks ready).
	prompt *sendPrompt
}

// Props returns the tasks actor's props.
func Props(opts Options) *actor.Props {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BinName == "" {
		opts.BinName = "herdr"
	}
	// A failed asker is stopped, not restarted (a restart would ask the
	// session again); its Terminated answers its call.
	stop := actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.StopDirective })
	return actor.PropsFromProducer(func() actor.Actor { return newTasks(opts) }, api.Guarded(opts.Log), actor.WithSupervisor(stop))
}

func newTasks(opts Options) *Tasks {
	t := &Tasks{opts: opts, inFlight: map[string]bool{}, askers: map[string]*asker{}, durable: map[uint64]heldReply{}}
	t.board = newBoard(func() int64 { return opts.Now().UnixMilli() })
	if opts.Restore != nil {
		t.board.restore(opts.Restore)
	}
	return t
}

// Receive implements actor.Actor.
func (t *Tasks) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		t.subscribe(ctx)
	case *api.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(api.Fail(protocol.Errorf(protocol.CodeInternal, "tasks: no handler for %s", msg.Method)))
			return
		}
		if reply := h(t, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *agentFound:
		t.agentFound(ctx, msg)
	case *prompted:
		t.prompted(ctx, msg)
	case *events.Batch:
		for _, line := range msg.Lines {
			t.onEvent(ctx, line)
		}
		ctx.Send(t.opts.Events, &events.Ack{Sub: ctx.Self()})
	case *events.Lost:
		t.subscribe(ctx) // agent_status activities are notes; none are owed
	case *actor.Terminated:
		if a := t.askers[msg.Who.Id]; a != nil {
			delete(t.askers, msg.Who.Id)
			delete(t.inFlight, a.taskID)
			ctx.Send(a.caller, api.Fail(protocol.Errorf(protocol.CodeInternal, "%s of %s: its agent lookup failed", a.call.Method, a.taskID)))
		}
	case *keeper.TasksSaved:
		t.saved(ctx, msg)
	case *SetDispatcher:
		t.dispatcher = msg.PID
	case *Dispatching:
		t.dispatching = msg.On
	case *Export:
		ctx.Respond(t.board.save())
	default:
		api.Unhandled(ctx, msg, t.opts.Log)
	}
}

// subscribe asks the bus for agent status changes, for the assignees'
// agent_status activities, and pane moves, to follow an assignee's pane.
func (t *Tasks) subscribe(ctx actor.Context) {
	if t.opts.Events != nil {
		ctx.Send(t.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: []string{"pane_agent_status_changed", "pane_moved"}})
	}
}

func (t *Tasks) onEvent(ctx actor.Context, line []byte) {
	var ev struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if protocol.Unmarshal(line, &ev) != nil {
		return
	}
	switch ev.Event {
	case "pane_agent_status_changed":
		var d protocol.PaneAgentStatusChangedEvent
		if protocol.Unmarshal(ev.Data, &d) == nil {
			t.apply(ctx, t.board.agentStatus(d.PaneID, string(d.AgentStatus)))
		}
	case "pane_moved":
		var d protocol.PaneMovedEvent
		if protocol.Unmarshal(ev.Data, &d) == nil && d.PreviousPaneID != d.Pane.PaneID {
			t.apply(ctx, t.board.paneMoved(d.PreviousPaneID, d.Pane.PaneID, d.Pane.TerminalID))
		}
	}
}

// apply keeps a change: the board's snapshot goes to the keeper, then the
// events to the bus, before the caller is answered.
func (t *Tasks) apply(ctx actor.Context, c change) {
	if len(c.events) == 0 {
		return
	}
	if t.opts.Keeper != nil {
		ctx.Send(t.opts.Keeper, &keeper.Tasks{Saved: t.board.save()})
	}
	t.publish(ctx, c)
}

// publish sends a change's events to the bus.
func (t *Tasks) publish(ctx actor.Context, c change) {
	if t.opts.Events != nil {
		for _, e := range c.events {
			ctx.Send(t.opts.Events, &events.Publish{Data: e, Fields: taskFields(e)})
		}
	}
}

// taskFields are the event's filterable facts; a task event names no
// workspace or pane of its own.
func taskFields(e protocol.EventData) events.Fields {
	switch e := e.(type) {
	case protocol.TaskUpdatedEvent:
		if e.Task.Assignee != nil {
			return events.Fields{PaneID: e.Task.Assignee.PaneID}
		}
	}
	return events.Fields{}
}

func infoReply(t *protocol.TaskInfo) *api.Reply {
	return api.Done(protocol.TaskInfoResult{Task: withActivities(t)})
}

func (t *Tasks) create(ctx actor.Context, call *api.Call) *api.Reply {
	p := call.Params.(*protocol.TaskCreateParams)
	if t.dispatching && p.Cwd == "" {
		return api.Fail(protocol.ParamError("cwd", "required while the task dispatcher runs: it makes each task's worktree off the task's folder (herdr task create --cwd DIR)"))
	}
	task, c, err := t.board.create(p, "api")
	if err != nil {
		return api.Fail(err)
	}
	t.apply(ctx, c)
	return infoReply(task)
}

func (t *Tasks) list(_ actor.Context, call *api.Call) *api.Reply {
	p := call.Params.(*protocol.TaskListParams)
	sorted := t.board.sorted(p)
	out := make([]protocol.TaskInfo, 0, len(sorted))
	for _, task := range sorted {
		out = append(out, withoutActivities(task))
	}
	return api.Done(protocol.TaskList{Tasks: out})
}

func (t *Tasks) get(_ actor.Context, call *api.Call) *api.Reply {
	task, err := t.board.get(call.Params.(*protocol.TaskIDParams).TaskID)
	if err != nil {
		return api.Fail(err)
	}
	return infoReply(task)
}

func (t *Tasks) report(ctx actor.Context, call *api.Call) *api.Reply {
	p := call.Params.(*protocol.TaskReportParams)
	source := p.Source
	if source == "" {
		source = "api"
	}
	task, c, err := t.board.report(p.TaskID, p.Status, p.Message, source)
	if err != nil {
		return api.Fail(err)
	}
	t.apply(ctx, c)
	return infoReply(task)
}

// claim is the dispatcher's durable record before it prompts a worker:
// answered once a session file holding it is on disk, so a server killed
// after the answer still knows the worker when it starts again.
func (t *Tasks) claim(ctx actor.Context, call *api.Call) *api.Reply {
	task, c, err := t.board.claim(call.Params.(*protocol.TaskClaimParams), "dispatcher")
	if err != nil {
		return api.Fail(err)
	}
	if len(c.events) == 0 || t.opts.Keeper == nil || ctx.Sender() == nil {
		t.apply(ctx, c)
		return infoReply(task)
	}
	t.lastSync++
	t.durable[t.lastSync] = heldReply{to: ctx.Sender(), reply: infoReply(task)}
	ctx.Send(t.opts.Keeper, &keeper.Tasks{Saved: t.board.save(), Sync: t.lastSync, ReplyTo: ctx.Self()})
	t.publish(ctx, c)
	return nil
}

// saved answers a claim whose file is on disk (or could not be written).
func (t *Tasks) saved(ctx actor.Context, m *keeper.TasksSaved) {
	held, ok := t.durable[m.Sync]
	if !ok {
		return
	}
	delete(t.durable, m.Sync)
	if held.prompt != nil {
		if m.Err != nil && !errors.Is(m.Err, keeper.ErrNoSessionFile) && t.opts.Log != nil {
			t.opts.Log.Warn("task dispatched before it was saved", "err", m.Err)
		}
		ctx.Send(held.to, held.prompt)
		return
	}
	if m.Err != nil && !errors.Is(m.Err, keeper.ErrNoSessionFile) {
		ctx.Send(held.to, api.Fail(protocol.Errorf(protocol.CodeInternal, "the claim is made but not saved: %v", m.Err)))
		return
	}
	ctx.Send(held.to, held.reply)
}

func (t *Tasks) run(ctx actor.Context, call *api.Call) *api.Reply {
	if t.dispatcher == nil {
		return api.Fail(protocol.Errorf(protocol.CodeFeatureDisabled, "this server has no task dispatcher"))
	}
	n := 0
	if p := call.Params.(*protocol.TaskRunParams); p.MaxRunning != nil {
		n = *p.MaxRunning
	}
	ctx.Send(t.dispatcher, &Run{MaxRunning: n})
	return api.OK()
}

func (t *Tasks) attach(ctx actor.Context, call *api.Call) *api.Reply {
	p := call.Params.(*protocol.TaskAttachParams)
	return t.resolve(ctx, call, p.TaskID, p.Target, false, "")
}

func (t *Tasks) dispatch(ctx actor.Context, call *api.Call) *api.Reply {
	p := call.Params.(*protocol.TaskDispatchParams)
	return t.resolve(ctx, call, p.TaskID, p.Target, true, p.Prompt)
}

// resolve starts an attach or a dispatch: the task is checked, marked in
// flight, and a child asks the session for the agent; the call is
// answered when the child reports (agentFound, prompted).
func (t *Tasks) resolve(ctx actor.Context, call *api.Call, id, target string, dispatch bool, prompt string) *api.Reply {
	task, err := t.board.get(id)
	if err != nil {
		return api.Fail(err)
	}
	if t.inFlight[task.ID] {
		return api.Fail(protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s: an attach or dispatch of it is already in progress", task.ID))
	}
	if dispatch && task.Status != protocol.TaskReady {
		return api.Fail(notReady(task))
	}
	if !dispatch && (task.Status == protocol.TaskDone || task.Status == protocol.TaskCancelled) {
		return api.Fail(protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s; a final task takes no assignee", task.ID, task.Status))
	}
	if t.opts.Session == nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "tasks: no session to find agents in"))
	}
	t.inFlight[task.ID] = true
	a := &asker{session: t.opts.Session, call: call, caller: ctx.Sender(), taskID: task.ID, target: target, dispatch: dispatch, prompt: prompt}
	pid := ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }, api.Guarded(t.opts.Log)))
	t.askers[pid.Id] = a
	return nil
}

// finish ends an asker whose call is answered (or about to be).
func (t *Tasks) finish(ctx actor.Context, pid *actor.PID) {
	if pid != nil {
		delete(t.askers, pid.Id)
		ctx.Stop(pid)
	}
}

// agentFound applies an attach or dispatch whose agent the session
// resolved; a dispatch then has its child send the prompt.
func (t *Tasks) agentFound(ctx actor.Context, m *agentFound) {
	if m.err != nil {
		delete(t.inFlight, m.asker.taskID)
		ctx.Send(m.asker.caller, api.Fail(m.err))
		t.finish(ctx, ctx.Sender())
		return
	}
	a := m.asker
	var (
		task   *protocol.TaskInfo
		c      change
		err    error
		before protocol.TaskInfo
	)
	if a.dispatch {
		if prev, gerr := t.board.get(a.taskID); gerr == nil {
			before = withoutActivities(prev)
		}
		task, c, err = t.board.dispatch(a.taskID, m.who, "api")
	} else {
		task, err = t.board.get(a.taskID)
		if err == nil && (task.Status == protocol.TaskDone || task.Status == protocol.TaskCancelled) {
			err = protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s; a final task takes no assignee", task.ID, task.Status)
		}
		if err == nil {
			t.board.attach(task, m.who, "api", &c)
			t.board.updated(task, task.Status, &c)
		}
	}
	if err != nil {
		delete(t.inFlight, a.taskID)
		ctx.Send(a.caller, api.Fail(err))
		t.finish(ctx, ctx.Sender())
		return
	}
	if !a.dispatch {
		t.apply(ctx, c)
		delete(t.inFlight, a.taskID)
		ctx.Send(a.caller, infoReply(task))
		t.finish(ctx, ctx.Sender())
		return
	}
	text := a.prompt
	if text == "" {
		text = promptFor(task, t.opts.BinName)
	}
	prompt := &sendPrompt{target: m.who.PaneID, text: text, before: before}
	if t.opts.Keeper == nil {
		t.apply(ctx, c)
		ctx.Send(ctx.Sender(), prompt)
		return
	}
	t.lastSync++
	t.durable[t.lastSync] = heldReply{to: ctx.Sender(), prompt: prompt}
	ctx.Send(t.opts.Keeper, &keeper.Tasks{Saved: t.board.save(), Sync: t.lastSync, ReplyTo: ctx.Self()})
	t.publish(ctx, c)
}

// prompted ends a dispatch: the agent has its prompt, or it could not be
// sent and the dispatch is undone (the history keeps both).
func (t *Tasks) prompted(ctx actor.Context, m *prompted) {
	id := m.asker.taskID
	delete(t.inFlight, id)
	t.finish(ctx, ctx.Sender())
	task, err := t.board.get(id)
	if err != nil {
		ctx.Send(m.asker.caller, api.Fail(err))
		return
	}
	if m.err == nil {
		ctx.Send(m.asker.caller, infoReply(task))
		return
	}
	var c change
	if task.Status == protocol.TaskRunning {
		t.board.undoDispatch(task, m.before, protocol.AsError(m.err).Message, &c)
		t.apply(ctx, c)
	}
	ctx.Send(m.asker.caller, api.Fail(m.err))
}

// promptFor is the prompt a dispatch sends: the task, and how to report.
func promptFor(task *protocol.TaskInfo, bin string) string {
	var b []byte
	b = fmt.Appendf(b, "Task %s: %s\n", task.ID, task.Title)
	if task.Description != "" {
		b = fmt.Appendf(b, "\n%s\n", task.Description)
	}
	switch w := task.Worker; {
	case w != nil && w.Path != "" && w.Branch != "":
		// The dispatcher's worker: its worktree, not the task's folder.
		b = fmt.Appendf(b, "\nWork in %s (a worktree of %s on branch %s).\n", w.Path, task.Cwd, w.Branch)
	case w != nil && w.Path != "":
		b = fmt.Appendf(b, "\nWork in %s.\n", w.Path)
	case task.Cwd != "":
		b = fmt.Appendf(b, "\nWork in %s.\n", task.Cwd)
	}
	b = fmt.Appendf(b, "\nReport progress with `%[1]s task report %[2]s running --message \"...\"`; when finished, `%[1]s task report %[2]s review --message \"what you did\"`; if stuck, `%[1]s task report %[2]s blocked --message \"why\"`.", bin, task.ID)
	return string(b)
}

// save is the board as session.json keeps it, sharing nothing mutable
// with it: the tasks changed since the last save are copied, the others'
// copies reused.
func (b *board) save() *model.SavedTasks {
	for n := range b.dirty {
		if t := b.tasks[n]; t != nil {
			b.saved[n] = withActivities(t)
		}
	}
	clear(b.dirty)
	s := &model.SavedTasks{NextID: b.nextID, Tasks: make([]protocol.TaskInfo, 0, len(b.order))}
	for _, n := range b.order {
		s.Tasks = append(s.Tasks, b.saved[n])
	}
	return s
}

// restore loads a saved board; entries that are not tasks are skipped,
// and the next id is past every kept one.
func (b *board) restore(s *model.SavedTasks) {
	b.nextID = max(s.NextID, 1)
	for _, t := range s.Tasks {
		n, ok := protocol.TaskNumber(t.ID)
		if !ok || !protocol.ValidTaskStatus(t.Status) || b.tasks[n] != nil {
			continue
		}
		c := withActivities(&t)
		if len(c.Activities) > protocol.MaxTaskActivities {
			c.Activities = c.Activities[len(c.Activities)-protocol.MaxTaskActivities:]
		}
		b.tasks[n] = &c
		b.dirty[n] = true
		b.order = append(b.order, n)
		b.nextID = max(b.nextID, n+1)
	}
	slices.Sort(b.order)
}

// undoDispatch puts a dispatched task back as it was before, noting why.
func (b *board) undoDispatch(t *protocol.TaskInfo, before protocol.TaskInfo, why string, c *change) {
	t.Status = before.Status
	t.Assignee = before.Assignee
	t.Attempts = before.Attempts
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityStatus, From: protocol.TaskRunning, Status: t.Status, Message: "dispatch failed: " + why, Source: "api"}, c)
	b.updated(t, protocol.TaskRunning, c)
}
