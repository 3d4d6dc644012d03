package dispatcher

import (
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/events"
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

// Options configure the dispatcher.
type Options struct {
	// Session takes every call it resolves (workspaces, panes, agents);
	// Owners the rest by their table owner (the tasks actor's task.*).
	Session *actor.PID
	Owners  map[protocol.Owner]*actor.PID
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
}

// Props are the dispatcher's.
func Props(opts Options) *actor.Props {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.Agent == "" {
		opts.Agent = "claude"
	}
	return actor.PropsFromProducer(func() actor.Actor { return newDispatcher(opts) }, api.Guarded(opts.Log))
}

// phase is where a worker is on its way to running its task.
type phase int

const (
	phaseClaim      phase = iota // the durable record (task.claim with the branch)
	phaseCloseOld                // closing the workspace of the task's previous worker
	phaseCreate                  // worktree.create
	phaseOpen                    // worktree.open: the branch has a worktree already
	phaseRecord                  // task.claim again, with the workspace and pane
	phaseLaunch                  // typing the agent's command line
	phaseAwaitAgent              // until the pane's agent is recognised
	phaseSettle                  // agent.wait until it is idle
	phaseName                    // agent.rename to the task's id
	phaseDispatch                // task.dispatch
	phaseWatch                   // dispatched: watched until the task leaves running and blocked
	phaseCheck                   // at start: does the claimed worker's pane still exist?
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
	opts      Options
	on        bool
	max       int
	tasks     map[string]*taskView
	workers   map[string]*worker // by task id
	held      map[string]bool    // tasks not picked again until their status changes
	listing   bool
	recovered bool
	seq       uint64
}

func newDispatcher(opts Options) *Dispatcher {
	return &Dispatcher{opts: opts, max: opts.MaxRunning, tasks: map[string]*taskView{}, workers: map[string]*worker{}, held: map[string]bool{}}
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
	case *answered:
		d.answered(ctx, msg)
	case *events.Batch:
		for _, line := range msg.Lines {
			d.onEvent(ctx, line)
		}
		ctx.Send(d.opts.Events, &events.Ack{Sub: ctx.Self()})
	case *events.Lost, *events.Failed:
		// Behind the history: read the board again and carry on.
		d.opts.Log.Warn("dispatcher fell behind the event history; reading the board again")
		d.subscribe(ctx)
		d.list(ctx)
	case *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		api.Unhandled(ctx, msg, d.opts.Log)
	}
}

// watchedKinds are the events the dispatcher acts on.
var watchedKinds = []string{"task_created", "task_updated", "pane_agent_detected", "pane_agent_status_changed", "pane_exited", "pane_closed"}

func (d *Dispatcher) subscribe(ctx actor.Context) {
	if d.opts.Events != nil {
		ctx.Send(d.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: watchedKinds})
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
	if first {
		d.list(ctx)
		return
	}
	d.fill(ctx)
}

func (d *Dispatcher) list(ctx actor.Context) {
	if d.listing {
		return
	}
	d.listing = true
	d.send(ctx, listed{}, "task.list", map[string]any{})
}

// send makes one call from a child; its answer comes back as *answered.
func (d *Dispatcher) send(ctx actor.Context, tag any, method string, params any) {
	d.seq++
	call, err := encodeCall("dispatcher:"+strconv.FormatUint(d.seq, 10), method, params)
	if err != nil {
		ctx.Send(ctx.Self(), &answered{tag: tag, reply: api.Fail(err)})
		return
	}
	m, _ := protocol.Lookup(method)
	owner := d.opts.Session
	if !m.Owner.ThroughSession() {
		owner = d.opts.Owners[m.Owner]
	}
	if owner == nil {
		ctx.Send(ctx.Self(), &answered{tag: tag, reply: api.Fail(protocol.Errorf(protocol.CodeInternal, "no actor answers %s", method))})
		return
	}
	c := &caller{owner: owner, call: call, tag: tag, within: callWithin}
	ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }, api.Guarded(d.opts.Log)))
}

// answered routes a call's answer by its tag.
func (d *Dispatcher) answered(ctx actor.Context, a *answered) {
	switch tag := a.tag.(type) {
	case listed:
		d.listing = false
		d.onList(ctx, a.reply)
	case step:
		if d.workers[tag.w.task] != tag.w || tag.w.phase != tag.phase {
			return // the worker was given up meanwhile
		}
		d.advance(ctx, tag.w, a.reply)
	case *sequence:
		d.sequenceStep(ctx, tag, a.reply)
	}
}

func (d *Dispatcher) onList(ctx actor.Context, r *api.Reply) {
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
	for _, t := range pick(d.tasks, busy, d.held, d.max-len(d.workers)) {
		d.start(ctx, t)
	}
}
