package tasks

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the task methods; each handler answers its call exactly
// once, now or (attach, dispatch) when its agent child reports back.
var Registry = kit.NewRegistry(protocol.OwnerTasks, "actors/tasks", map[string]func(*Tasks, actor.Context, *kit.Call) *kit.Reply{
	"task.create":   (*Tasks).create,
	"task.list":     (*Tasks).list,
	"task.get":      (*Tasks).get,
	"task.attach":   (*Tasks).attach,
	"task.dispatch": (*Tasks).dispatch,
	"task.report":   (*Tasks).report,
	"task.claim":    (*Tasks).claim,
	"task.run":      (*Tasks).run,
	"task.remove":   (*Tasks).remove,
})

// Options configure the tasks actor.
type Options struct {
	// Events is the bus: task events are published there, and the
	// assignees' agent status changes read from it.
	Events *actor.PID
	// Session resolves agent targets and carries prompts (agent.get,
	// agent.prompt), asked by a short-lived child per call.
	Session *actor.PID
	// Routes route those calls from the session's read side (nil: all
	// go to Session).
	Routes *kit.SessionRoutes
	// Store writes each change's tasks to disk (a *Store); nil keeps
	// nothing. The actor starts its writer and closes it when it stops.
	Store Saver
	// Restore is the board read from the store (or session.json, or
	// carried by a live handoff); nil starts empty.
	Restore *model.SavedTasks
	// Retention is [tasks] keep_done and keep_done_days.
	Retention Retention
	// BinName is how a prompt tells the agent to call herdr ("herdr").
	BinName string
	Log     *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Saver is where the board's changes go: the Store (store.go); tests
// stand in for it.
type Saver interface {
	// Start runs the writer; notify hears each version on disk.
	Start(notify func(gen uint64, err error))
	// Put queues changed tasks (copies), removed ones and the next id
	// (0: unchanged), and returns the version they make.
	Put(changed []protocol.TaskInfo, removed []uint64, nextID uint64) uint64
	// Close writes what is queued and stops, waiting at most timeout.
	Close(timeout time.Duration) bool
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

// SetFleet names the fleet actor, which answers the calls for the
// fleet's board (task.create, task.list and task.get with fleet: true);
// a nil PID: this server is in no fleet.
type SetFleet struct {
	PID *actor.PID
}

// fleetCall reports whether call is one for the fleet's board.
func fleetCall(call *kit.Call) bool {
	switch p := call.Params.(type) {
	case *protocol.TaskCreateParams:
		return p.Fleet
	case *protocol.TaskListParams:
		return p.Fleet
	case *protocol.TaskGetParams:
		return p.Fleet
	}
	return false
}

// toFleet hands a call for the fleet's board to the fleet actor, which
// answers the caller; without a fleet it is refused, saying why.
func (t *Tasks) toFleet(ctx actor.Context, call *kit.Call) {
	if t.fleet == nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeFleetUnavailable, "%s with fleet: this server is in no fleet (add a [fleet] section to config.toml; herdr fleet status shows the fleet)", call.Method)))
		return
	}
	ctx.Forward(t.fleet)
}

// Export asks for the board, for a live handoff; the answer is a
// *model.SavedTasks, sent once the store holds every change before it.
type Export struct{}

// Reconfigure takes a reloaded [tasks]' retention, applied at once.
type Reconfigure struct {
	Retention Retention
}

// storeWritten is the store's writer: versions up to gen are on disk
// (or err says why not).
type storeWritten struct {
	gen uint64
	err error
}

// retentionDue is the hourly look for finished tasks past keep_done_days.
type retentionDue struct{}

// retentionEvery is how often the age rule is applied between changes.
const retentionEvery = time.Hour

// Tasks is the tasks actor: the only owner of the board.
type Tasks struct {
	opts       Options
	board      *board
	dispatcher *actor.PID
	// fleet is the fleet actor (SetFleet): it holds the fleet's board,
	// when this server is a member.
	fleet *actor.PID
	// dispatching: the dispatcher runs (Dispatching).
	dispatching bool
	// inFlight marks the tasks an attach or dispatch is resolving its
	// agent for: a second one on the same task is refused meanwhile.
	inFlight map[string]bool
	// askers are the children still owing their call an answer, by
	// actor id: one that stops before it reports (it failed) is answered
	// internal_error here, so every call is answered once.
	askers map[string]*asker
	// durable holds the answers of claims (and a dispatch's prompt, an
	// export) until the store says the version holding them is on disk,
	// in the order they were made.
	durable []heldReply
	// lastGen is the store's version of the newest flush; doneGen the
	// newest the writer has reported.
	lastGen, doneGen uint64
	// nextIDSaved is the next id as last handed to the store.
	nextIDSaved uint64
	timers      kit.Timers
}

// heldReply is an answer waiting for its change to reach the disk.
type heldReply struct {
	gen   uint64
	to    *actor.PID
	reply *kit.Reply
	// prompt, for a dispatch, is what its asker sends once the running
	// task is on disk (a kill before cannot leave a prompted agent on a
	// task the next server thinks ready).
	prompt *sendPrompt
	// export is a live handoff's board.
	export *model.SavedTasks
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
	return actor.PropsFromProducer(func() actor.Actor { return newTasks(opts) }, kit.Guarded(opts.Log), actor.WithSupervisor(stop))
}

func newTasks(opts Options) *Tasks {
	t := &Tasks{opts: opts, inFlight: map[string]bool{}, askers: map[string]*asker{}}
	t.board = newBoard(func() int64 { return opts.Now().UnixMilli() })
	if opts.Restore != nil {
		t.board.restore(opts.Restore)
	}
	t.nextIDSaved = t.board.nextID
	return t
}

// Receive implements actor.Actor.
func (t *Tasks) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = t.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		t.subscribe(ctx)
		if t.opts.Store != nil {
			self, root := ctx.Self(), ctx.ActorSystem().Root
			t.opts.Store.Start(func(gen uint64, err error) { root.Send(self, &storeWritten{gen: gen, err: err}) })
		}
		t.apply(ctx, t.board.retain(t.opts.Retention))
		t.timers.After(ctx, retentionEvery, &retentionDue{})
	case *actor.Stopping:
		// The last changes reach the disk before the server exits.
		t.timers.StopAll()
		if t.opts.Store != nil {
			t.flush()
			if !t.opts.Store.Close(5*time.Second) && t.opts.Log != nil {
				t.opts.Log.Error("task board still being written at exit")
			}
		}
	case *retentionDue:
		t.apply(ctx, t.board.retain(t.opts.Retention))
		t.timers.After(ctx, retentionEvery, &retentionDue{})
	case *Reconfigure:
		t.opts.Retention = msg.Retention
		t.apply(ctx, t.board.retain(t.opts.Retention))
	case *storeWritten:
		t.written(ctx, msg)
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "tasks: no handler for %s", msg.Method)))
			return
		}
		if fleetCall(msg) {
			t.toFleet(ctx, msg)
			return
		}
		if reply := h(t, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *agentFound:
		t.agentFound(ctx, msg)
	case *prompted:
		t.prompted(ctx, msg)
	case *events.Events:
		for _, e := range msg.List {
			t.onEvent(ctx, e.Data)
		}
		ctx.Send(t.opts.Events, &events.Ack{Sub: ctx.Self()})
	case *events.Lost:
		t.subscribe(ctx) // agent_status activities are notes; none are owed
	case *actor.Terminated:
		if a := t.askers[msg.Who.Id]; a != nil {
			delete(t.askers, msg.Who.Id)
			delete(t.inFlight, a.taskID)
			ctx.Send(a.caller, kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s of %s: its agent lookup failed", a.call.Method, a.taskID)))
		}
	case *SetDispatcher:
		t.dispatcher = msg.PID
	case *Dispatching:
		t.dispatching = msg.On
	case *SetFleet:
		t.fleet = msg.PID
	case *Export:
		t.hold(ctx, heldReply{to: ctx.Sender(), export: t.board.snapshot()})
	default:
		kit.Unhandled(ctx, msg, t.opts.Log)
	}
}

// subscribe asks the bus for agent status changes, for the assignees'
// agent_status activities, and pane moves, to follow an assignee's pane.
func (t *Tasks) subscribe(ctx actor.Context) {
	if t.opts.Events != nil {
		ctx.Send(t.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: []string{"pane_agent_status_changed", "pane_moved"}, Typed: true})
	}
}

func (t *Tasks) onEvent(ctx actor.Context, d protocol.EventData) {
	switch d := d.(type) {
	case protocol.PaneAgentStatusChangedEvent:
		t.apply(ctx, t.board.agentStatus(d.PaneID, string(d.AgentStatus)))
	case protocol.PaneMovedEvent:
		if d.PreviousPaneID != d.Pane.PaneID {
			t.apply(ctx, t.board.paneMoved(d.PreviousPaneID, d.Pane.PaneID, d.Pane.TerminalID))
		}
	}
}

// apply keeps a change: the tasks it changed go to the store, then the
// events to the bus, before the caller is answered. A change that
// finishes a task applies the retention after it.
func (t *Tasks) apply(ctx actor.Context, c change) {
	if len(c.events) == 0 {
		return
	}
	t.flush()
	t.publish(ctx, c)
	if finishes(c) {
		t.apply(ctx, t.board.retain(t.opts.Retention))
	}
}

// finishes reports whether c moved a task to done or cancelled.
func finishes(c change) bool {
	for _, e := range c.events {
		if u, ok := e.(protocol.TaskUpdatedEvent); ok && final(u.Task.Status) && !final(u.PreviousStatus) {
			return true
		}
	}
	return false
}

// flush hands the store the tasks changed since the last flush (and the
// next id when it moved): the bytes of those tasks, not the board's.
func (t *Tasks) flush() {
	changed, removed := t.board.flush()
	if t.opts.Store == nil || len(changed) == 0 && len(removed) == 0 && t.board.nextID == t.nextIDSaved {
		return
	}
	next := uint64(0)
	if t.board.nextID != t.nextIDSaved {
		next, t.nextIDSaved = t.board.nextID, t.board.nextID
	}
	t.lastGen = t.opts.Store.Put(changed, removed, next)
}

// hold sends h once the store holds every change made so far (at once
// without a store).
func (t *Tasks) hold(ctx actor.Context, h heldReply) {
	t.flush()
	if t.opts.Store == nil || t.lastGen <= t.doneGen {
		t.release(ctx, h, nil)
		return
	}
	h.gen = t.lastGen
	t.durable = append(t.durable, h)
}

// written sends what waited for versions up to m.gen.
func (t *Tasks) written(ctx actor.Context, m *storeWritten) {
	t.doneGen = max(t.doneGen, m.gen)
	left := t.durable[:0]
	for _, h := range t.durable {
		if h.gen <= m.gen {
			t.release(ctx, h, m.err)
		} else {
			left = append(left, h)
		}
	}
	clear(t.durable[len(left):])
	t.durable = left
}

// release sends a held answer: a claim whose change could not be written
// fails, saying so; a dispatch's prompt and an export go regardless (the
// store retries), logged.
func (t *Tasks) release(ctx actor.Context, h heldReply, err error) {
	switch {
	case h.prompt != nil:
		if err != nil && t.opts.Log != nil {
			t.opts.Log.Warn("task dispatched before it was saved", "err", err)
		}
		ctx.Send(h.to, h.prompt)
	case h.export != nil:
		if err != nil && t.opts.Log != nil {
			t.opts.Log.Warn("task board handed over before it was saved", "err", err)
		}
		ctx.Send(h.to, h.export)
	case err != nil:
		ctx.Send(h.to, kit.Fail(protocol.Errorf(protocol.CodeInternal, "the claim is made but not saved: %v", err)))
	default:
		ctx.Send(h.to, h.reply)
	}
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

// infoReply answers with t and its newest activities (task.get's
// default page), never its whole history.
func infoReply(t *protocol.TaskInfo) *kit.Reply {
	return kit.Done(protocol.TaskInfoResult{Task: withPage(t, protocol.DefaultTaskActivities, 0)})
}

// withPage is a copy of t with the newest limit of its activities before
// seq before (0: all), and how many it keeps.
func withPage(t *protocol.TaskInfo, limit int, before uint64) protocol.TaskInfo {
	c := withoutActivities(t)
	acts := t.Activities
	if before != 0 {
		i, _ := slices.BinarySearchFunc(acts, before, func(a protocol.TaskActivity, seq uint64) int {
			return cmp.Compare(a.Seq, seq)
		})
		acts = acts[:i]
	}
	if len(acts) > limit {
		acts = acts[len(acts)-limit:]
	}
	c.Activities = slices.Clone(acts)
	c.ActivityCount = len(t.Activities)
	return c
}

// reportReply answers a report with what it changed: the task without
// its description and with only the activities the report added, so its
// size is the report's (its message, kept as last_message too, as
// Herdr's answer has it).
func reportReply(t *protocol.TaskInfo, c change) *kit.Reply {
	r := withoutActivities(t)
	r.Description = ""
	r.ActivityCount = len(t.Activities)
	for _, e := range c.events {
		if a, ok := e.(protocol.TaskActivityEvent); ok && a.TaskID == t.ID {
			r.Activities = append(r.Activities, a.Activity)
		}
	}
	return kit.Done(protocol.TaskInfoResult{Task: r})
}

func (t *Tasks) create(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskCreateParams)
	if t.dispatching && p.Cwd == "" {
		return kit.Fail(protocol.ParamError("cwd", "required while the task dispatcher runs: it makes each task's worktree off the task's folder (herdr task create --cwd DIR)"))
	}
	task, c, err := t.board.create(p, "api")
	if err != nil {
		return kit.Fail(err)
	}
	t.apply(ctx, c)
	return infoReply(task)
}

// list answers a page of the tasks asked for (all from offset without
// a limit), with their total and the next page's offset.
func (t *Tasks) list(_ actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskListParams)
	sorted := t.board.sorted(p)
	res := protocol.TaskList{Total: len(sorted)}
	page := sorted[min(p.Offset, len(sorted)):]
	if p.Limit > 0 && len(page) > p.Limit {
		page = page[:p.Limit]
		res.NextOffset = p.Offset + p.Limit
	}
	res.Tasks = make([]protocol.TaskInfo, 0, len(page))
	for _, task := range page {
		info := withoutActivities(task)
		info.ActivityCount = len(task.Activities)
		res.Tasks = append(res.Tasks, info)
	}
	return kit.Done(res)
}

func (t *Tasks) get(_ actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskGetParams)
	task, err := t.board.get(p.TaskID)
	if err != nil {
		return kit.Fail(err)
	}
	limit := p.ActivityLimit
	if limit == 0 {
		limit = protocol.DefaultTaskActivities
	}
	return kit.Done(protocol.TaskInfoResult{Task: withPage(task, limit, p.ActivitiesBefore)})
}

// remove takes a done or cancelled task off the board (and its file
// off the disk).
func (t *Tasks) remove(ctx actor.Context, call *kit.Call) *kit.Reply {
	c, err := t.board.remove(call.Params.(*protocol.TaskIDParams).TaskID)
	if err != nil {
		return kit.Fail(err)
	}
	t.apply(ctx, c)
	return kit.OK()
}

func (t *Tasks) report(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskReportParams)
	source := p.Source
	if source == "" {
		source = "api"
	}
	task, c, err := t.board.report(p.TaskID, p.Status, p.Message, source)
	if err != nil {
		return kit.Fail(err)
	}
	t.apply(ctx, c)
	return reportReply(task, c)
}

// claim is the dispatcher's durable record before it prompts a worker:
// answered once a session file holding it is on disk, so a server killed
// after the answer still knows the worker when it starts again.
func (t *Tasks) claim(ctx actor.Context, call *kit.Call) *kit.Reply {
	task, c, err := t.board.claim(call.Params.(*protocol.TaskClaimParams), "dispatcher")
	if err != nil {
		return kit.Fail(err)
	}
	if len(c.events) == 0 || t.opts.Store == nil || ctx.Sender() == nil {
		t.apply(ctx, c)
		return infoReply(task)
	}
	t.hold(ctx, heldReply{to: ctx.Sender(), reply: infoReply(task)})
	t.publish(ctx, c)
	return nil
}

func (t *Tasks) run(ctx actor.Context, call *kit.Call) *kit.Reply {
	if t.dispatcher == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeFeatureDisabled, "this server has no task dispatcher"))
	}
	n := 0
	if p := call.Params.(*protocol.TaskRunParams); p.MaxRunning != nil {
		n = *p.MaxRunning
	}
	ctx.Send(t.dispatcher, &Run{MaxRunning: n})
	return kit.OK()
}

func (t *Tasks) attach(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskAttachParams)
	return t.resolve(ctx, call, p.TaskID, p.Target, false, "")
}

func (t *Tasks) dispatch(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.TaskDispatchParams)
	return t.resolve(ctx, call, p.TaskID, p.Target, true, p.Prompt)
}

// resolve starts an attach or a dispatch: the task is checked, marked in
// flight, and a child asks the session for the agent; the call is
// answered when the child reports (agentFound, prompted).
func (t *Tasks) resolve(ctx actor.Context, call *kit.Call, id, target string, dispatch bool, prompt string) *kit.Reply {
	task, err := t.board.get(id)
	if err != nil {
		return kit.Fail(err)
	}
	if t.inFlight[task.ID] {
		return kit.Fail(protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s: an attach or dispatch of it is already in progress", task.ID))
	}
	if dispatch && task.Status != protocol.TaskReady {
		return kit.Fail(notReady(task))
	}
	if !dispatch && (task.Status == protocol.TaskDone || task.Status == protocol.TaskCancelled) {
		return kit.Fail(protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s; a final task takes no assignee", task.ID, task.Status))
	}
	if t.opts.Session == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "tasks: no session to find agents in"))
	}
	t.inFlight[task.ID] = true
	a := &asker{session: t.opts.Session, routes: t.opts.Routes, call: call, caller: ctx.Sender(), taskID: task.ID, target: target, dispatch: dispatch, prompt: prompt}
	pid := ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }, kit.Guarded(t.opts.Log)))
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
		ctx.Send(m.asker.caller, kit.Fail(m.err))
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
		ctx.Send(a.caller, kit.Fail(err))
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
	t.hold(ctx, heldReply{to: ctx.Sender(), prompt: prompt})
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
		ctx.Send(m.asker.caller, kit.Fail(err))
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
	ctx.Send(m.asker.caller, kit.Fail(m.err))
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

// undoDispatch puts a dispatched task back as it was before, noting why.
func (b *board) undoDispatch(t *protocol.TaskInfo, before protocol.TaskInfo, why string, c *change) {
	t.Status = before.Status
	t.Assignee = before.Assignee
	t.Attempts = before.Attempts
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityStatus, From: protocol.TaskRunning, Status: t.Status, Message: "dispatch failed: " + why, Source: "api"}, c)
	b.updated(t, protocol.TaskRunning, c)
}
