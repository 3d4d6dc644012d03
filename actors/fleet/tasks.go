package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/board"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// boardCallWithin bounds one board call (the hub answers in milliseconds;
// a hub failing over takes seconds).
const boardCallWithin = 15 * time.Second

// tasker is the fleet actor's child that wires the fleet board in: it
// answers task.create, task.list and task.get with fleet: true, keeps a
// view of the board (a watch), claims ready tasks this member is eligible
// for while it holds fewer than its capacity, runs each claimed task as a
// task of this server's own board (which its dispatcher runs), keeps the
// lease alive and reports the local task's status to the board, and
// sweeps the leases of dead members. Every board call runs on a
// goroutine; its result comes back as a message.
type tasker struct {
	js       jetstream.JetStream
	cfg      board.Config
	member   board.Member
	socket   string
	log      *slog.Logger
	b        *board.Board
	stop     func()
	view     map[string]*board.Task
	held     map[string]*running // by fleet task id
	claiming bool
	ticking  bool // a tick's renewals are under way
	sweeping bool
	tries    int
	timers   kit.Timers
}

// running is a fleet task this member holds: its lease and the task of
// this server's board that runs it.
type running struct {
	lease  board.Lease
	local  string
	status string // the status last reported to the board
}

type (
	boardOpened struct {
		b    *board.Board
		stop func()
		err  error
	}
	boardChanged struct{ c board.Change }
	boardTick    struct{}
	boardSweep   struct{}
	boardReopen  struct{}
	claimDone    struct {
		t     *board.Task
		lease board.Lease
		local string
		err   error
	}
	// leaseNews is what a tick learnt of one held task: still held (its
	// status as reported), or gone (ended by the worker's report, or
	// lost).
	leaseNews struct {
		id     string
		status string
		gone   bool
		err    error
	}
	ticked  struct{}
	sweptAt struct {
		tasks []*board.Task
		err   error
	}
)

func (k *tasker) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		k.view, k.held = map[string]*board.Task{}, map[string]*running{}
		k.open(ctx)
	case *actor.Stopping:
		k.timers.StopAll()
		if k.stop != nil {
			k.stop()
		}
	case *kit.Fired:
		switch k.timers.Fired(msg).(type) {
		case *boardReopen:
			k.open(ctx)
		case *boardTick:
			k.tick(ctx)
			k.timers.After(ctx, k.every(), &boardTick{})
		case *boardSweep:
			k.sweep(ctx)
			k.timers.After(ctx, k.cfg.LeaseTTL/2, &boardSweep{})
		}
	case *boardOpened:
		if msg.err != nil {
			k.tries++
			k.log.Warn("fleet: the fleet board did not open; trying again", "err", msg.err)
			k.timers.After(ctx, reconnectDelay(k.tries), &boardReopen{})
			return
		}
		k.b, k.stop, k.tries = msg.b, msg.stop, 0
		k.timers.After(ctx, k.every(), &boardTick{})
		k.timers.After(ctx, k.cfg.LeaseTTL/2, &boardSweep{})
	case *boardChanged:
		switch {
		case msg.c.Task != nil:
			k.view[msg.c.Task.ID] = msg.c.Task
		case msg.c.Removed != "":
			delete(k.view, msg.c.Removed)
		}
		k.claim(ctx)
	case *claimDone:
		k.claimed(ctx, msg)
	case *leaseNews:
		k.leaseNews(msg)
	case *ticked:
		k.ticking = false
		k.claim(ctx)
	case *sweptAt:
		k.sweeping = false
		if msg.err != nil {
			k.log.Warn("fleet: sweeping the board's leases", "err", msg.err)
		}
		for _, t := range msg.tasks {
			k.log.Warn("fleet: a member's lease ran out; its task is ready again", "task", t.ID, "message", t.LastMessage)
		}
	case *kit.Call:
		k.call(ctx, msg)
	default:
		kit.Unhandled(ctx, msg, k.log)
	}
}

// every is the tick of renewals and claims: a third of the lease's TTL.
func (k *tasker) every() time.Duration { return max(k.cfg.LeaseTTL/3, 100*time.Millisecond) }

// open opens the board and watches it, on a goroutine.
func (k *tasker) open(ctx actor.Context) {
	js, cfg, self, root := k.js, k.cfg, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithTimeout(context.Background(), boardCallWithin)
		defer cancel()
		b, err := board.Open(c, js, cfg)
		if err != nil {
			root.Send(self, &boardOpened{err: err})
			return
		}
		stop, err := b.Watch(context.Background(), func(ch board.Change) { root.Send(self, &boardChanged{c: ch}) })
		root.Send(self, &boardOpened{b: b, stop: stop, err: err})
	}()
}

// claim takes the first ready task this member is eligible for, when it
// has room, on a goroutine: the claim, then the local task that runs it.
func (k *tasker) claim(ctx actor.Context) {
	if k.b == nil || k.claiming || k.member.Capacity <= 0 || len(k.held) >= k.member.Capacity {
		return
	}
	var ready []*board.Task
	for _, t := range k.view {
		if t.Status == protocol.TaskReady && k.member.Eligible(t) {
			ready = append(ready, t)
		}
	}
	if len(ready) == 0 {
		return
	}
	board.SortTasks(ready)
	k.claiming = true
	b, m, socket, self, root := k.b, k.member, k.socket, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithTimeout(context.Background(), boardCallWithin)
		defer cancel()
		t, l, err := b.ClaimFirst(c, m, ready)
		if err != nil || t == nil {
			root.Send(self, &claimDone{err: err})
			return
		}
		local, err := createLocal(socket, t)
		if err != nil {
			_, _ = b.Release(c, l, fmt.Sprintf("machine %s could not run it: %v", m.Name, err))
			root.Send(self, &claimDone{err: err})
			return
		}
		root.Send(self, &claimDone{t: t, lease: l, local: local})
	}()
}

func (k *tasker) claimed(ctx actor.Context, d *claimDone) {
	k.claiming = false
	if d.err != nil {
		k.log.Warn("fleet: claiming a fleet task", "err", d.err)
		return
	}
	if d.t == nil {
		return
	}
	k.view[d.t.ID] = d.t
	k.held[d.t.ID] = &running{lease: d.lease, local: d.local, status: protocol.TaskRunning}
	k.log.Info("fleet: claimed a fleet task", "task", d.t.ID, "local", d.local)
	k.claim(ctx) // room for more?
}

// createLocal makes the task of this server's board that runs fleet task
// t, through this server's socket (as a person's task.create would).
func createLocal(socket string, t *board.Task) (string, error) {
	desc := t.Description
	note := fmt.Sprintf("(fleet task %s, run for the fleet's board)", t.ID)
	if desc == "" {
		desc = note
	} else if len(desc)+len(note)+2 <= protocol.MaxTaskDescription {
		desc += "\n\n" + note
	}
	var res protocol.TaskInfoResult
	err := localCall(socket, "task.create", protocol.TaskCreateParams{Title: t.Title, Description: desc, Cwd: t.Cwd, Priority: t.Priority}, &res)
	return res.Task.ID, err
}

// localCall makes one call through this server's socket.
func localCall(socket, method string, params, out any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	line, err := json.Marshal(protocol.Request{ID: "fleet-board", Method: method, Params: raw})
	if err != nil {
		return err
	}
	c, err := protocol.Connect(socket)
	if err != nil {
		return fmt.Errorf("this server's socket: %w", err)
	}
	defer c.Close()
	b, err := c.RoundTrip(line)
	if err != nil {
		return fmt.Errorf("this server's socket: %w", err)
	}
	var resp struct {
		Result json.RawMessage     `json:"result"`
		Error  *protocol.ErrorBody `json:"error"`
	}
	if err := protocol.Unmarshal(b, &resp); err != nil {
		return err
	}
	if resp.Error != nil {
		return &protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message}
	}
	return protocol.Unmarshal(resp.Result, out)
}

// tick, on a goroutine, reads each held task's local task and tells the
// board: a new status is reported (ending the lease when the task left
// running and blocked), else the lease is renewed.
func (k *tasker) tick(ctx actor.Context) {
	if k.b == nil || k.ticking {
		return
	}
	if len(k.held) == 0 {
		k.claim(ctx)
		return
	}
	k.ticking = true
	type job struct {
		id string
		r  running
	}
	var jobs []job
	for id, r := range k.held {
		jobs = append(jobs, job{id, *r})
	}
	b, socket, self, root := k.b, k.socket, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		defer root.Send(self, &ticked{})
		for _, j := range jobs {
			root.Send(self, keepLease(b, socket, j.id, j.r))
		}
	}()
}

// keepLease is one held task's tick.
func keepLease(b *board.Board, socket, id string, r running) *leaseNews {
	c, cancel := context.WithTimeout(context.Background(), boardCallWithin)
	defer cancel()
	var res protocol.TaskInfoResult
	status, message := r.status, ""
	err := localCall(socket, "task.get", protocol.TaskGetParams{TaskID: r.local, ActivityLimit: 1}, &res)
	var pe *protocol.Error
	switch {
	case errors.As(err, &pe) && pe.Code == protocol.CodeTaskNotFound:
		status, message = protocol.TaskFailed, fmt.Sprintf("its task %s on machine %s was removed", r.local, r.lease.Machine)
	case err != nil:
		// This server did not answer: the lease is renewed all the same
		// (the local task goes on), and the next tick asks again.
	default:
		message = res.Task.LastMessage
		switch res.Task.Status {
		case protocol.TaskRunning, protocol.TaskBlocked, protocol.TaskReview, protocol.TaskDone, protocol.TaskFailed, protocol.TaskCancelled:
			status = res.Task.Status
		}
	}
	if status == r.status {
		if err := b.Renew(c, r.lease); err != nil {
			return lost(socket, id, r, err)
		}
		return &leaseNews{id: id, status: status}
	}
	if message == "" {
		message = fmt.Sprintf("%s on machine %s (its task %s)", status, r.lease.Machine, r.local)
	}
	t, err := b.Report(c, r.lease, status, message)
	if err != nil {
		return lost(socket, id, r, err)
	}
	return &leaseNews{id: id, status: status, gone: !t.Held()}
}

// lost is a failed renewal or report: a lease that is gone stops the
// local task (cancelled, saying why: another member may hold the fleet
// task now); any other error keeps it, to try again at the next tick.
func lost(socket, id string, r running, err error) *leaseNews {
	if !errors.Is(err, board.ErrLeaseLost) {
		return &leaseNews{id: id, err: err}
	}
	var res protocol.TaskInfoResult
	_ = localCall(socket, "task.report", protocol.TaskReportParams{TaskID: r.local, Status: protocol.TaskCancelled,
		Message: fmt.Sprintf("fleet task %s is no longer this machine's: %v", id, err), Source: "fleet"}, &res)
	return &leaseNews{id: id, gone: true, err: err}
}

func (k *tasker) leaseNews(n *leaseNews) {
	r := k.held[n.id]
	if r == nil {
		return
	}
	if n.err != nil && !n.gone {
		k.log.Warn("fleet: keeping a fleet task's lease", "task", n.id, "err", n.err)
		return
	}
	if n.gone {
		if n.err != nil {
			k.log.Warn("fleet: a fleet task's lease was lost; its local task is no longer the fleet's", "task", n.id, "local", r.local, "err", n.err)
		}
		delete(k.held, n.id)
		return
	}
	r.status = n.status
}

// sweep releases the leases of dead members, on a goroutine.
func (k *tasker) sweep(ctx actor.Context) {
	if k.b == nil || k.sweeping {
		return
	}
	k.sweeping = true
	b, name, self, root := k.b, k.member.Name, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithTimeout(context.Background(), boardCallWithin)
		defer cancel()
		ts, err := b.Sweep(c, name)
		root.Send(self, &sweptAt{tasks: ts, err: err})
	}()
}

// call answers task.create, task.list and task.get of the fleet's board,
// on a goroutine that answers the caller.
func (k *tasker) call(ctx actor.Context, call *kit.Call) {
	if k.b == nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeFleetUnavailable, "%s with fleet: the fleet board is not open yet (herdr fleet status shows the hub)", call.Method)))
		return
	}
	b, name, sender, root := k.b, k.member.Name, ctx.Sender(), ctx.ActorSystem().Root
	go func() { root.Send(sender, boardCall(b, name, call)) }()
}

func boardCall(b *board.Board, name string, call *kit.Call) *kit.Reply {
	c, cancel := context.WithTimeout(context.Background(), boardCallWithin)
	defer cancel()
	switch p := call.Params.(type) {
	case *protocol.TaskCreateParams:
		t, err := b.Create(c, board.Spec{Title: p.Title, Description: p.Description, Cwd: p.Cwd, Priority: p.Priority, Requires: p.Requires, Backlog: p.Backlog, Source: "fleet:" + name})
		if err != nil {
			return kit.Fail(err)
		}
		return kit.Done(protocol.TaskInfoResult{Task: TaskInfo(t, protocol.DefaultTaskActivities)})
	case *protocol.TaskGetParams:
		t, err := b.Get(c, p.TaskID)
		if err != nil {
			return kit.Fail(err)
		}
		limit := p.ActivityLimit
		if limit == 0 {
			limit = protocol.DefaultTaskActivities
		}
		return kit.Done(protocol.TaskInfoResult{Task: TaskInfo(t, limit)})
	case *protocol.TaskListParams:
		ts, err := b.List(c, p.Status...)
		if err != nil {
			return kit.Fail(err)
		}
		out := protocol.TaskList{Tasks: []protocol.TaskInfo{}, Total: len(ts)}
		ts = ts[min(p.Offset, len(ts)):]
		if p.Limit > 0 && len(ts) > p.Limit {
			ts = ts[:p.Limit]
			out.NextOffset = p.Offset + p.Limit
		}
		for _, t := range ts {
			out.Tasks = append(out.Tasks, TaskInfo(t, 0))
		}
		return kit.Done(out)
	}
	return kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "%s is not a call of the fleet's board", call.Method))
}

// TaskInfo is a fleet task on the wire: a task whose worker names its
// machine, with its newest limit activities.
func TaskInfo(t *board.Task, limit int) protocol.TaskInfo {
	out := protocol.TaskInfo{ID: t.ID, Title: t.Title, Description: t.Description, Cwd: t.Cwd, Priority: t.Priority,
		DependsOn: []string{}, Status: t.Status, Attempts: t.Attempts, LastMessage: t.LastMessage, CreatedMS: t.CreatedMS,
		UpdatedMS: t.UpdatedMS, ActivityCount: len(t.Activities), Fleet: true, Requires: slices.Clone(t.Requires)}
	if t.Worker != nil {
		w := t.Worker.TaskWorker
		w.Machine = t.Worker.Machine
		out.Worker = &w
	}
	if limit > 0 {
		out.Activities = t.Activities[max(0, len(t.Activities)-limit):]
	}
	return out
}
