package tasks

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// fakeSession answers agent.get and agent.prompt as the session would:
// "bob" is the agent in w1:p2 (its answer held until release when hold
// is set), any other name is agent_not_found; a prompt holding FAIL is
// refused agent_blocked, any other one is recorded.
type fakeSession struct {
	hold    bool
	held    []*actor.PID
	prompts chan string
}

type release struct{}

func (f *fakeSession) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kit.Call:
		switch p := msg.Params.(type) {
		case *protocol.AgentTarget:
			if p.Target == "boom" {
				ctx.Respond(kit.Done(explosive{}))
				return
			}
			if p.Target != "bob" {
				ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", p.Target)))
				return
			}
			if f.hold {
				f.held = append(f.held, ctx.Sender())
				return
			}
			ctx.Respond(bob())
		case *protocol.AgentPromptParams:
			if strings.Contains(p.Text, "FAIL") {
				ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeAgentBlocked, "agent is blocked")))
				return
			}
			f.prompts <- p.Target + "|" + p.Text
			ctx.Respond(kit.Done(protocol.AgentPrompted{}))
		}
	case *release:
		f.hold = false // a get that has not come yet is answered as it comes
		for _, pid := range f.held {
			ctx.Send(pid, bob())
		}
		f.held = nil
	}
}

// explosive is an answer the asker breaks on (its encoding panics).
type explosive struct{}

func (explosive) ResultType() string           { return "agent_info" }
func (explosive) MarshalJSON() ([]byte, error) { panic("boom") }

func bob() *kit.Reply {
	return kit.Done(protocol.AgentInfoResult{Agent: protocol.AgentInfo{PaneID: "w1:p2", TerminalID: "term_1"}})
}

// sink forwards every message of type T it gets to a channel.
func sink[T any](ch chan T) actor.ReceiveFunc {
	return func(ctx actor.Context) {
		if m, ok := ctx.Message().(T); ok {
			ch <- m
		}
	}
}

type rig struct {
	t       *testing.T
	system  *actor.ActorSystem
	tasks   *actor.PID
	session *actor.PID
	prompts chan string
	store   *fakeStore
}

// fakeStore stands for the Store: it hands every Put to the test and,
// when auto, reports it written at once.
type fakeStore struct {
	auto   bool
	gen    uint64
	puts   chan storePut
	notify func(uint64, error)
}

type storePut struct {
	gen     uint64
	changed []protocol.TaskInfo
	removed []uint64
	next    uint64
}

func (f *fakeStore) Start(notify func(uint64, error)) { f.notify = notify }
func (f *fakeStore) Close(time.Duration) bool         { return true }
func (f *fakeStore) Put(changed []protocol.TaskInfo, removed []uint64, next uint64) uint64 {
	f.gen++
	f.puts <- storePut{gen: f.gen, changed: changed, removed: removed, next: next}
	if f.auto {
		f.notify(f.gen, nil)
	}
	return f.gen
}

// newRig starts the tasks actor beside a fake session and a store that
// reports every change written at once.
func newRig(t *testing.T, hold bool, restore *model.SavedTasks) *rig {
	return startRig(t, hold, restore, true)
}

func startRig(t *testing.T, hold bool, restore *model.SavedTasks, autoSave bool) *rig {
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }))
	t.Cleanup(system.Shutdown)
	r := &rig{t: t, system: system, prompts: make(chan string, 8), store: &fakeStore{auto: autoSave, puts: make(chan storePut, 256)}}
	r.session = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &fakeSession{hold: hold, prompts: r.prompts} }))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r.tasks = system.Root.Spawn(Props(Options{Session: r.session, Store: r.store, Restore: restore, Log: log}))
	return r
}

// written tells the tasks actor the store wrote version gen (or failed).
func (r *rig) written(gen uint64, err error) {
	r.system.Root.Send(r.tasks, &storeWritten{gen: gen, err: err})
}

// putWith waits for the Put that holds a version of task id.
func (r *rig) putWith(id string) (storePut, protocol.TaskInfo) {
	r.t.Helper()
	for {
		select {
		case p := <-r.store.puts:
			for _, c := range p.changed {
				if c.ID == id {
					return p, c
				}
			}
		case <-time.After(5 * time.Second):
			r.t.Fatalf("no write of %s", id)
		}
	}
}

func (r *rig) ask(method string, params protocol.Params) *actor.Future {
	return r.system.Root.RequestFuture(r.tasks, &kit.Call{ID: method, Method: method, Params: params}, 5*time.Second)
}

func (r *rig) reply(f *actor.Future) *kit.Reply {
	r.t.Helper()
	res, err := f.Result()
	if err != nil {
		r.t.Fatalf("no answer: %v", err)
	}
	return res.(*kit.Reply)
}

func (r *rig) task(f *actor.Future) protocol.TaskInfo {
	r.t.Helper()
	rep := r.reply(f)
	if rep.Err != nil {
		r.t.Fatalf("error %v", rep.Err)
	}
	return rep.Result.(protocol.TaskInfoResult).Task
}

func (r *rig) fails(f *actor.Future, code string) string {
	r.t.Helper()
	rep := r.reply(f)
	if rep.Err == nil || protocol.AsError(rep.Err).Code != code {
		r.t.Fatalf("answer %+v, want %s", rep, code)
	}
	return rep.Err.Error()
}

// While a dispatch waits for the session, other task calls are answered
// and a second attach or dispatch of the same task is refused; the first
// then answers running, and its prompt (by pane id, made from the task)
// reaches the agent.
func TestTasks_DispatchInFlight(t *testing.T) {
	r := newRig(t, true, nil)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "Add retry policy", Description: "three times"}))
	first := r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "bob"})
	// Calls after it in the mailbox: answered while it waits.
	if msg := r.fails(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "bob"}), protocol.CodeInvalidTaskTransition); !strings.Contains(msg, "in progress") {
		t.Fatalf("second dispatch: %s", msg)
	}
	r.fails(r.ask("task.attach", &protocol.TaskAttachParams{TaskID: "task-1", Target: "bob"}), protocol.CodeInvalidTaskTransition)
	if got := r.task(r.ask("task.get", &protocol.TaskGetParams{TaskID: "task-1"})); got.Status != protocol.TaskReady {
		t.Fatalf("while in flight: %s", got.Status)
	}
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "another"}))
	r.system.Root.Send(r.session, &release{})
	got := r.task(first)
	if got.Status != protocol.TaskRunning || got.Attempts != 1 || got.Assignee == nil || *got.Assignee != (protocol.TaskAssignee{Target: "bob", PaneID: "w1:p2", TerminalID: "term_1"}) {
		t.Fatalf("dispatched: %+v", got)
	}
	select {
	case p := <-r.prompts:
		if !strings.HasPrefix(p, "w1:p2|Task task-1: Add retry policy\n\nthree times\n") || !strings.Contains(p, "herdr task report task-1 review") {
			t.Fatalf("prompt %q", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no prompt")
	}
	// Once answered, the task is no longer in flight.
	if got := r.task(r.ask("task.report", &protocol.TaskReportParams{TaskID: "task-1", Status: protocol.TaskReview})); got.Status != protocol.TaskReview {
		t.Fatalf("report after dispatch: %s", got.Status)
	}
}

// A dispatch whose agent is unknown changes nothing; one whose prompt is
// refused is undone (ready again, no assignee, attempts back), the
// history telling why, and answers the prompt's error.
func TestTasks_DispatchFailures(t *testing.T) {
	r := newRig(t, false, nil)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "t"}))
	r.fails(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "nobody"}), protocol.CodeAgentNotFound)
	r.fails(r.ask("task.attach", &protocol.TaskAttachParams{TaskID: "task-1", Target: "nobody"}), protocol.CodeAgentNotFound)
	if got := r.task(r.ask("task.get", &protocol.TaskGetParams{TaskID: "task-1"})); got.Assignee != nil || got.Attempts != 0 || len(got.Activities) != 1 {
		t.Fatalf("after an unknown agent: %+v", got)
	}
	r.fails(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "bob", Prompt: "FAIL"}), protocol.CodeAgentBlocked)
	got := r.task(r.ask("task.get", &protocol.TaskGetParams{TaskID: "task-1"}))
	last := got.Activities[len(got.Activities)-1]
	if got.Status != protocol.TaskReady || got.Assignee != nil || got.Attempts != 0 || last.From != protocol.TaskRunning || !strings.Contains(last.Message, "dispatch failed") {
		t.Fatalf("after a refused prompt: %+v", got)
	}
	r.fails(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-9", Target: "bob"}), protocol.CodeTaskNotFound)
}

// task.run needs a dispatcher: feature_disabled without one, else the
// dispatcher is told to run, with the bound asked for.
func TestTasks_Run(t *testing.T) {
	r := newRig(t, false, nil)
	r.fails(r.ask("task.run", &protocol.TaskRunParams{}), protocol.CodeFeatureDisabled)
	runs := make(chan *Run, 1)
	r.system.Root.Send(r.tasks, &SetDispatcher{PID: r.system.Root.Spawn(actor.PropsFromFunc(sink(runs)))})
	n := 3
	if rep := r.reply(r.ask("task.run", &protocol.TaskRunParams{MaxRunning: &n})); rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if got := <-runs; got.MaxRunning != 3 {
		t.Fatalf("run %+v", got)
	}
}

// Each change hands the store the task it changed, and only that one
// (the board is never written whole), before it is answered; a restored
// board answers as it was saved and goes on numbering.
func TestTasks_KeptAndRestored(t *testing.T) {
	r := newRig(t, false, nil)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "one"}))
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "two"}))
	r.task(r.ask("task.report", &protocol.TaskReportParams{TaskID: "task-2", Status: protocol.TaskCancelled}))
	kept := map[string]protocol.TaskInfo{}
	var next uint64
	for i := range 3 {
		p := <-r.store.puts
		if len(p.changed) != 1 || len(p.removed) != 0 {
			t.Fatalf("change %d wrote %d tasks, removed %v; want the one it changed", i, len(p.changed), p.removed)
		}
		kept[p.changed[0].ID] = p.changed[0]
		next = max(next, p.next)
	}
	if next != 3 || len(kept) != 2 || kept["task-2"].Status != protocol.TaskCancelled {
		t.Fatalf("kept %+v, next id %d", kept, next)
	}
	r.fails(r.ask("task.report", &protocol.TaskReportParams{TaskID: "task-2", Status: protocol.TaskReady}), protocol.CodeInvalidTaskTransition)
	select {
	case s := <-r.store.puts:
		t.Fatalf("a refused change was kept: %+v", s)
	default:
	}

	r2 := newRig(t, false, &model.SavedTasks{NextID: next, Tasks: []protocol.TaskInfo{kept["task-1"], kept["task-2"]}})
	if got := r2.task(r2.ask("task.get", &protocol.TaskGetParams{TaskID: "task-2"})); got.Status != protocol.TaskCancelled || len(got.Activities) != 2 {
		t.Fatalf("restored %+v", got)
	}
	if got := r2.task(r2.ask("task.create", &protocol.TaskCreateParams{Title: "three"})); got.ID != "task-3" {
		t.Fatalf("next after restore: %s", got.ID)
	}
	res, err := r2.system.Root.RequestFuture(r2.tasks, &Export{}, 5*time.Second).Result()
	if err != nil || res.(*model.SavedTasks).NextID != 4 || len(res.(*model.SavedTasks).Tasks) != 3 {
		t.Fatalf("export %v %+v", err, res)
	}
}

// An asker that breaks is stopped, and its call answered internal_error
// once; the task is no longer in flight.
func TestTasks_BrokenAskerAnswersOnce(t *testing.T) {
	r := newRig(t, false, nil)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "t"}))
	r.fails(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "boom"}), protocol.CodeInternal)
	if got := r.task(r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "bob"})); got.Status != protocol.TaskRunning {
		t.Fatalf("dispatch after a broken one: %+v", got)
	}
}

// A claim is answered only once the store says the version holding it
// is on disk; calls after it are answered meanwhile, and a failed write
// is answered as an error.
func TestTasks_ClaimAnsweredWhenDurable(t *testing.T) {
	r := startRig(t, false, nil, false)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "one"}))
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "two"}))
	replies := make(chan *kit.Reply, 4)
	probe := r.system.Root.Spawn(actor.PropsFromFunc(sink(replies)))
	send := func(method string, p protocol.Params) {
		r.system.Root.RequestWithCustomSender(r.tasks, &kit.Call{ID: method, Method: method, Params: p}, probe)
	}
	send("task.claim", &protocol.TaskClaimParams{TaskID: "task-1", Worker: &protocol.TaskWorker{WorkspaceID: "w2", Branch: "task/task-1-one"}})
	send("task.get", &protocol.TaskGetParams{TaskID: "task-2"})
	if first := <-replies; first.Err != nil || first.Result.(protocol.TaskInfoResult).Task.ID != "task-2" {
		t.Fatalf("first answer %+v, want task-2's (the claim waits for the disk)", first)
	}
	p, claimedTask := r.putWith("task-1")
	for claimedTask.Worker == nil {
		p, claimedTask = r.putWith("task-1")
	}
	if claimedTask.Worker.Branch != "task/task-1-one" {
		t.Fatalf("the store was handed %+v", claimedTask)
	}
	r.written(p.gen-1, nil) // an older version: not yet
	select {
	case early := <-replies:
		t.Fatalf("answered before its version was written: %+v", early)
	case <-time.After(50 * time.Millisecond):
	}
	r.written(p.gen, nil)
	claimed := <-replies
	if claimed.Err != nil || claimed.Result.(protocol.TaskInfoResult).Task.Worker == nil {
		t.Fatalf("claim answer %+v", claimed)
	}

	send("task.claim", &protocol.TaskClaimParams{TaskID: "task-2", Worker: &protocol.TaskWorker{WorkspaceID: "w3"}})
	p, _ = r.putWith("task-2")
	r.written(p.gen, errors.New("disk full"))
	if failed := <-replies; failed.Err == nil || !strings.Contains(failed.Err.Error(), "disk full") {
		t.Fatalf("claim whose write failed: %+v", failed)
	}
}

// A dispatch prompts its agent only once the running task is on disk.
func TestTasks_DispatchPromptsOnceDurable(t *testing.T) {
	r := startRig(t, false, nil, false)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "one"}))
	dispatched := r.ask("task.dispatch", &protocol.TaskDispatchParams{TaskID: "task-1", Target: "bob"})
	p, running := r.putWith("task-1")
	for running.Status != protocol.TaskRunning {
		p, running = r.putWith("task-1")
	}
	select {
	case p := <-r.prompts:
		t.Fatalf("prompted before the task was on disk: %q", p)
	default:
	}
	r.written(p.gen, nil)
	if got := r.task(dispatched); got.Status != protocol.TaskRunning {
		t.Fatalf("dispatch %+v", got)
	}
	if p := <-r.prompts; !strings.Contains(p, "Task task-1: one") {
		t.Fatalf("prompt %q", p)
	}
}

// While the dispatcher runs, a task without a cwd is refused (it could
// make no worktree for it); before and after, one is taken.
func TestTasks_CreateNeedsCwdWhileDispatching(t *testing.T) {
	r := newRig(t, false, nil)
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "before"}))
	r.system.Root.Send(r.tasks, &Dispatching{On: true})
	if msg := r.fails(r.ask("task.create", &protocol.TaskCreateParams{Title: "while"}), protocol.CodeInvalidParams); !strings.Contains(msg, "cwd") || !strings.Contains(msg, "dispatcher") {
		t.Fatalf("refusal %q", msg)
	}
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "with one", Cwd: "/repo"}))
	r.system.Root.Send(r.tasks, &Dispatching{On: false})
	r.task(r.ask("task.create", &protocol.TaskCreateParams{Title: "after"}))
}

// The prompt of a task the dispatcher claimed names its worker's
// worktree, not the task's folder.
func TestTasks_PromptNamesTheWorktree(t *testing.T) {
	task := &protocol.TaskInfo{ID: "task-1", Title: "t", Cwd: "/repo", Worker: &protocol.TaskWorker{Path: "/wt/repo-task-1", Branch: "task/task-1-t"}}
	p := promptFor(task, "herdr")
	if !strings.Contains(p, "Work in /wt/repo-task-1 (a worktree of /repo on branch task/task-1-t).") || strings.Contains(p, "Work in /repo") {
		t.Fatalf("prompt %q", p)
	}
	task.Worker = nil
	if p := promptFor(task, "herdr"); !strings.Contains(p, "Work in /repo.") {
		t.Fatalf("prompt without a worker %q", p)
	}
}

// A fleet call (task.create, task.list, task.get with fleet) is refused
// fleet_unavailable while no fleet actor is named, and goes to it, with
// its caller, once one is; this board is left alone either way.
func TestTasks_FleetCallsGoToTheFleet(t *testing.T) {
	r := newRig(t, false, nil)
	msg := r.fails(r.ask("task.create", &protocol.TaskCreateParams{Title: "x", Fleet: true}), protocol.CodeFleetUnavailable)
	if !strings.Contains(msg, "no fleet") {
		t.Fatalf("fleet_unavailable: %s", msg)
	}
	fleet := r.system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			ctx.Respond(kit.Done(protocol.TaskList{Tasks: []protocol.TaskInfo{{ID: "task-9", Fleet: true}}, Total: 1}))
		}
	}))
	r.system.Root.Send(r.tasks, &SetFleet{PID: fleet})
	for method, p := range map[string]protocol.Params{
		"task.list":   &protocol.TaskListParams{Fleet: true},
		"task.get":    &protocol.TaskGetParams{TaskID: "task-9", Fleet: true},
		"task.create": &protocol.TaskCreateParams{Title: "y", Fleet: true},
	} {
		rep := r.reply(r.ask(method, p))
		if l, ok := rep.Result.(protocol.TaskList); !ok || l.Tasks[0].ID != "task-9" {
			t.Fatalf("%s: not the fleet's answer: %+v", method, rep)
		}
	}
	if l := r.reply(r.ask("task.list", &protocol.TaskListParams{})).Result.(protocol.TaskList); l.Total != 0 {
		t.Fatalf("this board: %+v", l)
	}
}
