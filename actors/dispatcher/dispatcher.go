package dispatcher

import (
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// DefaultMaxRunning bounds the workers when neither the config nor
// task.run says.
const DefaultMaxRunning = 2

// callWithin is a call's safety deadline (an agent.wait carries its own
// timeout below it).
const callWithin = 2 * time.Minute

// agentReadyMS is how long a started worker's agent may take to settle
// (agent.wait's timeout) before the dispatch is given up.
const agentReadyMS = 60000

// Defaults of the [tasks] bounds a zero Options field leaves unset.
const (
	DefaultAgentStart  = 30 * time.Second
	DefaultMaxAttempts = 3
	DefaultRetryDelay  = 5 * time.Second
)

// Options configure the dispatcher.
type Options struct {
	// Session takes every call it resolves (workspaces, panes, agents);
	// Owners the rest by their table owner (the tasks actor's task.*).
	Session *actor.PID
	Owners  map[protocol.Owner]*actor.PID
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	// Events is the bus the dispatcher watches tasks, agents and panes on.
	Events *actor.PID
	Log    *slog.Logger
	// On starts the dispatcher with the server ([tasks] dispatcher).
	On bool
	// Agent is the worker's command line template ([tasks] agent).
	Agent string
	// MaxRunning bounds the workers at once ([tasks] max_running).
	MaxRunning int
	// BranchPrefix starts a worker's branch ([tasks] branch_prefix).
	BranchPrefix string
	// AgentStart bounds the wait for a worker's agent to be recognised
	// in its pane ([tasks] agent_start_timeout); past it the worker is
	// given up.
	AgentStart time.Duration
	// MaxAttempts is how many workers a task gets before one that cannot
	// start moves it to failed ([tasks] max_attempts).
	MaxAttempts int
	// RetryDelay is the wait before a given-up task's next worker,
	// doubled at each attempt ([tasks] retry_delay; negative: none).
	RetryDelay time.Duration
}

// Reconfigure applies a reloaded [tasks] (server.reload_config): the
// template, bounds and prefix apply to the workers made from now on;
// dispatcher turns it on or off when its value changed. Session, Owners,
// Events and Log are kept.
type Reconfigure struct {
	Options Options
}

// withDefaults fills what opts leaves unset.
func withDefaults(opts Options) Options {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.Agent == "" {
		opts.Agent = "claude"
	}
	if opts.AgentStart <= 0 {
		opts.AgentStart = DefaultAgentStart
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.RetryDelay == 0 {
		opts.RetryDelay = DefaultRetryDelay
	}
	return opts
}

// Props are the dispatcher's.
func Props(opts Options) *actor.Props {
	opts = withDefaults(opts)
	return actor.PropsFromProducer(func() actor.Actor { return newDispatcher(opts) }, kit.Guarded(opts.Log))
}

// phase is where a worker is on its way to running its task.
type phase int

const (
	phaseClaim      phase = iota // the durable record (task.claim with the branch)
	phaseCloseOld                // closing the workspace of the task's previous worker
	phaseCreate                  // worktree.create
	phaseOpen                    // worktree.open: the branch has a worktree already
	phaseRecord                  // task.claim again, with the workspace and pane
	phaseShell                   // pane.process_info: which shell the command line is quoted for
	phaseLaunch                  // typing the agent's command line
	phaseAwaitAgent              // until the pane's agent is recognised
	phaseSettle                  // agent.wait until it is idle
	phaseName                    // agent.rename to the task's id
	phaseDispatch                // task.dispatch
	phaseWatch                   // dispatched: watched until the task leaves running and blocked
	phaseCheck                   // at start: does the claimed worker's pane still exist?
	phaseAdopt                   // at start: does the adopted worker's pane still run its agent?
	phaseRelease                 // its agent or pane is gone: the task goes back (dead)
)

// worker is one task's worker, from its claim until the task leaves it.
type worker struct {
	task        string
	phase       phase
	prior       *workerView // the previous attempt's worker (a retry)
	branch      string
	workspaceID string
	paneID      string
	path        string
	target      string               // what task.dispatch names: the agent's name, else its pane
	agent       bool                 // the pane's agent has been recognised
	agentStatus protocol.AgentStatus // the last status its agent was seen in
	reporting   bool                 // a report of this worker's is under way
	attempt     int                  // this worker's attempt at its task, from 1
	createErr   error                // why worktree.create failed, when worktree.open was tried next
}

// step tags a worker's call with the phase it answers.
type step struct {
	w     *worker
	phase phase
}

// listed tags the task.list answer.
type listed struct{}

// Dispatcher is the actor: it owns its view of the board and its workers.
type Dispatcher struct {
	opts    Options
	on      bool
	max     int
	tasks   map[string]*taskView
	workers map[string]*worker // by task id
	held    map[string]bool    // tasks not picked again until their status changes
	// waiting are the tasks whose dead worker's retry waits out its
	// backoff: the dispatcher's own reports change their status, so held
	// would not hold them.
	waiting   map[string]bool
	listing   bool
	recovered bool
	seq       uint64
	timers    kit.Timers
	// noted are the ready tasks said to have no cwd, said once each.
	noted map[string]bool
}

// agentBound is a worker's deadline for its agent to be recognised.
type agentBound struct{ w *worker }

// retryDue ends a given-up task's wait for its next worker.
type retryDue struct{ task string }

func newDispatcher(opts Options) *Dispatcher {
	return &Dispatcher{opts: opts, max: opts.MaxRunning, tasks: map[string]*taskView{}, workers: map[string]*worker{}, held: map[string]bool{}, waiting: map[string]bool{}, noted: map[string]bool{}}
}

// Receive implements actor.Actor.
func (d *Dispatcher) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		d.subscribe(ctx)
		if d.opts.On {
			d.turnOn(ctx, 0)
		}
	case *tasks.Run: // task.run: on for the server's life; a bound above 0 replaces max_running
		d.turnOn(ctx, msg.MaxRunning)
	case *Reconfigure:
		d.reconfigure(ctx, msg.Options)
	case *kit.Fired:
		switch m := d.timers.Fired(msg).(type) {
		case *agentBound:
			d.agentLate(ctx, m.w)
		case *retryDue:
			delete(d.held, m.task)
			delete(d.waiting, m.task)
			d.fill(ctx)
		}
	case *kit.Answered:
		d.answered(ctx, msg)
	case *events.Events:
		for _, e := range msg.List {
			d.onEvent(ctx, e.Data)
		}
		if d.opts.Events != nil {
			ctx.Send(d.opts.Events, &events.Ack{Sub: ctx.Self()})
		}
	case *events.Lost, *events.Failed:
		// Behind the history: read the board again and carry on.
		d.opts.Log.Warn("dispatcher fell behind the event history; reading the board again")
		d.subscribe(ctx)
		d.list(ctx)
	case *actor.Stopping:
		d.timers.StopAll()
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, d.opts.Log)
	}
}

// watchedKinds are the events the dispatcher acts on.
var watchedKinds = []string{"task_created", "task_updated", "pane_agent_detected", "pane_agent_status_changed", "pane_exited", "pane_closed"}

func (d *Dispatcher) subscribe(ctx actor.Context) {
	if d.opts.Events != nil {
		ctx.Send(d.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: watchedKinds, Typed: true})
	}
}

// turnOn starts dispatching (again with a new bound): the board is read,
// the claims a previous server left are settled, then ready tasks start.
func (d *Dispatcher) turnOn(ctx actor.Context, maxRunning int) {
	if maxRunning > 0 {
		d.max = maxRunning
	}
	first := !d.on
	d.on = true
	d.opts.Log.Info("task dispatcher on", "max_running", d.max)
	d.tellTasks(ctx)
	if first {
		d.list(ctx)
		return
	}
	d.fill(ctx)
}

// tellTasks tells the tasks actor whether the dispatcher runs (it then
// refuses a task without a cwd).
func (d *Dispatcher) tellTasks(ctx actor.Context) {
	if pid := d.opts.Owners[protocol.OwnerTasks]; pid != nil {
		ctx.Send(pid, &tasks.Dispatching{On: d.on})
	}
}

// reconfigure applies a reloaded [tasks]: the new bound at once, the
// rest to the workers made from now on; the dispatcher key, when it
// changed, turns the dispatcher on or off (its workers go on either way).
func (d *Dispatcher) reconfigure(ctx actor.Context, next Options) {
	next.Session, next.Routes, next.Owners, next.Events, next.Log = d.opts.Session, d.opts.Routes, d.opts.Owners, d.opts.Events, d.opts.Log
	next = withDefaults(next)
	wasOn := d.opts.On
	d.opts = next
	d.max = next.MaxRunning
	d.opts.Log.Info("task dispatcher reconfigured", "agent", next.Agent, "max_running", next.MaxRunning, "agent_start", next.AgentStart, "max_attempts", next.MaxAttempts)
	switch {
	case next.On && !wasOn:
		d.turnOn(ctx, 0)
	case !next.On && wasOn && d.on:
		d.on = false
		d.opts.Log.Info("task dispatcher off ([tasks] dispatcher = false); its workers go on")
		d.tellTasks(ctx)
	default:
		d.fill(ctx)
	}
}

func (d *Dispatcher) list(ctx actor.Context) {
	if d.listing {
		return
	}
	d.listing = true
	d.send(ctx, listed{}, "task.list", map[string]any{})
}

// send makes one call from a child; its answer comes back as *kit.Answered.
func (d *Dispatcher) send(ctx actor.Context, tag any, method string, params any) {
	d.seq++
	call, err := kit.EncodeCall("dispatcher:"+strconv.FormatUint(d.seq, 10), method, params)
	if err != nil {
		ctx.Send(ctx.Self(), &kit.Answered{Tag: tag, Reply: kit.Fail(err)})
		return
	}
	m, _ := protocol.Lookup(method)
	owner := d.opts.Session
	if !m.Owner.ThroughSession() {
		owner = d.opts.Owners[m.Owner]
	}
	if owner == nil {
		ctx.Send(ctx.Self(), &kit.Answered{Tag: tag, Reply: kit.Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s", method))})
		return
	}
	c := &kit.Caller{Owner: owner, Routes: d.opts.Routes, Call: call, Tag: tag, Within: callWithin}
	c.Spawn(ctx, d.opts.Log)
}

// answered routes a call's answer by its tag.
func (d *Dispatcher) answered(ctx actor.Context, a *kit.Answered) {
	switch tag := a.Tag.(type) {
	case listed:
		d.listing = false
		d.onList(ctx, a.Reply)
	case step:
		if d.workers[tag.w.task] != tag.w || tag.w.phase != tag.phase {
			return // the worker was given up meanwhile
		}
		d.advance(ctx, tag.w, a.Reply)
	case *sequence:
		d.sequenceStep(ctx, tag, a.Reply)
	}
}

func (d *Dispatcher) onList(ctx actor.Context, r *kit.Reply) {
	if r.Err != nil {
		d.opts.Log.Warn("dispatcher: task.list failed", "err", r.Err)
		return
	}
	var res struct {
		Tasks []*taskView `json:"tasks"`
	}
	if err := decodeResult(r.Result, &res); err != nil {
		d.opts.Log.Warn("dispatcher: task.list", "err", err)
		return
	}
	d.tasks = map[string]*taskView{}
	for _, t := range res.Tasks {
		d.tasks[t.ID] = t
	}
	if !d.recovered {
		d.recovered = true
		d.recover(ctx)
	}
	d.fill(ctx)
}

// fill starts workers for the ready tasks the bound leaves room for.
func (d *Dispatcher) fill(ctx actor.Context) {
	if !d.on || !d.recovered {
		return
	}
	busy := map[string]bool{}
	for id := range d.workers {
		busy[id] = true
	}
	for id := range d.waiting {
		busy[id] = true
	}
	for _, t := range pick(d.tasks, busy, d.held, d.max-len(d.workers)) {
		d.start(ctx, t)
	}
	d.noteNoCwd(ctx)
}

// noteNoCwd says, once per task, why a ready task without a cwd is never
// picked (one created before the dispatcher ran; task.create refuses one
// while it runs).
func (d *Dispatcher) noteNoCwd(ctx actor.Context) {
	for id, t := range d.tasks {
		if t.Status != statusReady || t.Cwd != "" || d.noted[id] {
			continue
		}
		d.noted[id] = true
		why := "not picked by the dispatcher: the task has no cwd to make its worktree off; create it again with --cwd DIR"
		d.opts.Log.Warn("dispatcher: task not picked", "task", id, "why", why)
		d.chain(ctx, id, report(id, statusReady, func(*kit.Reply) string { return why }))
	}
}
