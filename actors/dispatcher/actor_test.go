package dispatcher

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// result is a fake owner's answer: its wire shape as a map.
type result map[string]any

func (result) ResultType() string { return "fake" }

// seen is one call the fake server was sent: its method and params' JSON.
type seen struct {
	method string
	params string
}

// fakeServer stands in for the session and the tasks actor: it answers
// each call by answer and tells the test every call, in order, but for
// pane.process_info (which shell a command line is quoted for): that is
// answered here, bash in front, and not told.
func fakeServer(t *testing.T, answer func(c *kit.Call) *kit.Reply) (*actor.ActorSystem, *actor.PID, chan seen) {
	t.Helper()
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	calls := make(chan seen, 256)
	pid := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if c, ok := ctx.Message().(*kit.Call); ok {
			if c.Method == "pane.process_info" {
				ctx.Respond(kit.Done(result{"process_info": map[string]any{"pane_id": "w2:p1", "shell_pid": 40, "foreground_process_group_id": 40,
					"foreground_processes": []any{map[string]any{"pid": 40, "name": "bash"}}}}))
				return
			}
			raw, _ := json.Marshal(c.Params)
			calls <- seen{c.Method, string(raw)}
			ctx.Respond(answer(c))
		}
	}))
	return system, pid, calls
}

func spawnDispatcher(system *actor.ActorSystem, server *actor.PID, maxRunning int) *actor.PID {
	return system.Root.Spawn(Props(Options{Session: server, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: server, protocol.OwnerWorktrees: server},
		On: true, MaxRunning: maxRunning, Agent: "claude {title}", BranchPrefix: "task/"}))
}

// next is the next call, failing after a while.
func next(t *testing.T, calls chan seen) seen {
	t.Helper()
	select {
	case c := <-calls:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no call")
		return seen{}
	}
}

// none checks no call comes while the dispatcher is given time to make one.
func none(t *testing.T, calls chan seen) {
	t.Helper()
	select {
	case c := <-calls:
		t.Fatalf("unexpected call %s %s", c.method, c.params)
	case <-time.After(300 * time.Millisecond): // a negative: nothing comes
	}
}

// drain is every call until none comes for a while.
func drain(calls chan seen) []string {
	var got []string
	for {
		select {
		case c := <-calls:
			got = append(got, c.method+" "+c.params)
		case <-time.After(500 * time.Millisecond): // quiet: the dispatcher is done
			return got
		}
	}
}

// drainUntil collects calls until every one of wants is among them (a
// loaded machine can pause the dispatcher past drain's quiet window), then
// fails naming the first missing; it returns what it collected.
func drainUntil(t *testing.T, calls chan seen, wants ...string) string {
	t.Helper()
	var got []string
	deadline := time.After(20 * time.Second)
	for {
		joined := strings.Join(got, "\n")
		missing := ""
		for _, w := range wants {
			if !strings.Contains(joined, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return joined
		}
		select {
		case c := <-calls:
			got = append(got, c.method+" "+c.params)
		case <-deadline:
			t.Fatalf("no %s in\n%s", missing, joined)
		}
	}
}

func task(id, status string, prio int, worker map[string]any) map[string]any {
	m := map[string]any{"id": id, "title": "Do " + id, "cwd": "/repo", "priority": prio, "status": status}
	if worker != nil {
		m["worker"] = worker
	}
	return m
}

// The worker's steps, in order, each from the answer before: the durable
// record first, the worktree, the record of its pane, the command line,
// the agent settled and named, then the dispatch; at most max_running
// workers, the next ready task once one leaves running.
func TestDispatcher_StepsInOrderWithinTheBound(t *testing.T) {
	board := []any{task("task-1", "ready", 0, nil), task("task-2", "ready", 0, nil), task("task-3", "ready", 1, nil)}
	ws := 1
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": board})
		case "worktree.create":
			ws++
			w := fmt.Sprintf("w%d", ws)
			return kit.Done(result{"workspace": map[string]any{"workspace_id": w}, "root_pane": map[string]any{"pane_id": w + ":p1"}, "worktree": map[string]any{"path": "/wt/" + w}})
		}
		return kit.Done(result{})
	})
	d := spawnDispatcher(system, server, 2)
	if c := next(t, calls); c.method != "task.list" {
		t.Fatalf("first call %s", c.method)
	}
	perTask := map[string][]string{}
	order := []string{}
	for len(order) < 2*8 {
		c := next(t, calls)
		var p struct {
			TaskID string `json:"task_id"`
			PaneID string `json:"pane_id"`
			Target string `json:"target"`
			Branch string `json:"branch"`
		}
		_ = json.Unmarshal([]byte(c.params), &p)
		id := p.TaskID
		switch {
		case id != "":
		case p.Branch != "": // worktree.create: the branch is named after its task
			id = strings.TrimPrefix(p.Branch, "task/")
			id = id[:strings.Index(id[len("task-"):], "-")+len("task-")]
		default:
			pane := p.PaneID + p.Target // the worker's pane, named in its task's second claim
			for k, v := range perTask {
				if pane != "" && strings.Contains(strings.Join(v, " "), `"`+pane+`"`) {
					id = k
				}
			}
		}
		perTask[id] = append(perTask[id], c.method+" "+c.params)
		order = append(order, c.method)
		if strings.Contains(c.params, "task-3") {
			t.Fatalf("a third worker while two run: %s %s", c.method, c.params)
		}
	}
	for id, steps := range perTask {
		var methods []string
		for _, s := range steps {
			methods = append(methods, strings.Fields(s)[0])
		}
		want := "task.claim worktree.create task.claim pane.send_input agent.get agent.wait agent.rename task.dispatch"
		if got := strings.Join(methods, " "); got != want {
			t.Fatalf("%s steps:\n %s\nwant\n %s", id, got, want)
		}
		if !strings.Contains(steps[0], `"worker":{"branch":"task/`+id+`-do-`+id+`"`) {
			t.Fatalf("first claim %s", steps[0])
		}
		if !strings.Contains(steps[3], `export HERDR_TASK_ID=`+id+`; claude 'Do `+id+`'`) {
			t.Fatalf("command line %s", steps[3])
		}
	}
	none(t, calls)
	// task-1 goes to review: its slot is task-3's.
	system.Root.Send(d, &events.Events{List: []events.Event{{Data: protocol.TaskUpdatedEvent{
		Task: protocol.TaskInfo{ID: "task-1", Title: "Do task-1", Cwd: "/repo", Status: "review"}, PreviousStatus: "running"}}}})
	if c := next(t, calls); c.method != "task.claim" || !strings.Contains(c.params, "task-3") {
		t.Fatalf("after a review: %s %s", c.method, c.params)
	}
}

// The restart rule: a ready task whose claimed pane exists gets its agent
// in that pane (no new claim, no new worktree); a running task whose pane
// is gone is reported failed, released (an attempt) and reported ready,
// in that order; a running task whose pane runs its agent is adopted
// without a call past the check.
func TestDispatcher_RestartRule(t *testing.T) {
	board := []any{
		task("task-1", "ready", 0, map[string]any{"workspace_id": "w2", "pane_id": "w2:p1", "branch": "task/task-1-do-task-1"}),
		task("task-2", "running", 0, map[string]any{"workspace_id": "w3", "pane_id": "w3:p1", "branch": "task/task-2-do-task-2"}),
		task("task-3", "running", 0, map[string]any{"workspace_id": "w4", "pane_id": "w4:p1", "branch": "task/task-3-do-task-3"}),
	}
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": board})
		case "pane.get":
			id := c.Params.(*protocol.PaneTarget).PaneID
			if id == "w3:p1" {
				return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "no pane %s", id))
			}
			return kit.Done(result{"pane": map[string]any{"pane_id": id, "workspace_id": strings.Split(id, ":")[0]}})
		case "agent.get":
			if c.Params.(*protocol.AgentTarget).Target == "w4:p1" {
				return kit.Done(result{"agent": map[string]any{"pane_id": "w4:p1", "agent": "claude"}})
			}
		}
		return kit.Done(result{})
	})
	spawnDispatcher(system, server, 5)
	got := drain(calls)
	joined := strings.Join(got, "\n")
	if strings.Contains(joined, "worktree.create") || strings.Count(joined, "task.dispatch") != 1 || !strings.Contains(joined, `task.dispatch {"task_id":"task-1"`) {
		t.Fatalf("the restart made new workers or dispatched other than task-1 once:\n%s", joined)
	}
	idx := func(sub string) int {
		for i, g := range got {
			if strings.Contains(g, sub) {
				return i
			}
		}
		t.Fatalf("no call %q in\n%s", sub, joined)
		return -1
	}
	failed, release, ready := idx(`"task_id":"task-2","status":"failed"`), idx(`task.claim {"task_id":"task-2","release":true,"message":"given up (attempt 1 of 3): the worker's pane w3:p1 is gone`), idx(`"task_id":"task-2","status":"ready"`)
	if !(failed < release && release < ready) {
		t.Fatalf("vanished worker's order:\n%s", joined)
	}
	if i := idx(`pane.send_input {"pane_id":"w2:p1"`); i < idx(`pane.get {"pane_id":"w2:p1"}`) {
		t.Fatalf("adopted before the check:\n%s", joined)
	}
	if strings.Contains(joined, `"task_id":"task-3","status"`) || strings.Count(joined, "w4:p1") != 2 {
		t.Fatalf("a live dispatched worker was not left alone:\n%s", joined)
	}
}

// A worker whose agent is never recognised is given up at AgentStart:
// the pane's last lines read, the claim released saying why and which
// attempt, its workspace closed; the task is retried (the count read
// from the claim's history) until MaxAttempts, then reported failed.
func TestDispatcher_GivesUpRetriesThenFails(t *testing.T) {
	var acts []protocol.TaskActivity
	claimed := func() *kit.Reply {
		m := task("task-1", "ready", 0, nil)
		m["activities"] = acts
		return kit.Done(result{"task": m})
	}
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": []any{task("task-1", "ready", 0, nil)}})
		case "task.claim":
			if p := c.Params.(*protocol.TaskClaimParams); p.Release {
				acts = append(acts, protocol.TaskActivity{Kind: protocol.ActivityUnclaimed, Message: p.Message})
			}
			return claimed()
		case "worktree.create":
			return kit.Done(result{"workspace": map[string]any{"workspace_id": "w2"}, "root_pane": map[string]any{"pane_id": "w2:p1"}, "worktree": map[string]any{"path": "/wt/w2"}})
		case "agent.get":
			return kit.Fail(protocol.Errorf(protocol.CodeAgentNotFound, "no agent in w2:p1"))
		case "pane.read":
			return kit.Done(result{"read": map[string]any{"text": "$ claude 'Do task-1'\nsh: 1: claude: not found\n$ "}})
		}
		return kit.Done(result{})
	})
	system.Root.Spawn(Props(Options{Session: server, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: server, protocol.OwnerWorktrees: server},
		On: true, Agent: "claude {title}", BranchPrefix: "task/", AgentStart: 50 * time.Millisecond, MaxAttempts: 2, RetryDelay: -1}))
	got := drainUntil(t, calls,
		`"release":true,"message":"given up (attempt 1 of 2): the agent was not recognised in its pane within 50ms; the pane shows:\n$ claude 'Do task-1'\nsh: 1: claude: not found\n$"`,
		`"release":true,"message":"given up (attempt 2 of 2)`,
		`workspace.close {"workspace_id":"w2"}`,
		`task.report {"task_id":"task-1","status":"failed","message":"the dispatcher gave up after 2 attempts: the agent was not recognised`,
	)
	got += "\n" + strings.Join(drain(calls), "\n") // and nothing more: no third worker
	if n := strings.Count(got, "worktree.create"); n != 2 {
		t.Fatalf("%d workers, want 2:\n%s", n, got)
	}
}

// A dispatched worker whose agent is gone goes back to ready: after a
// restart, one whose agent does not show within AgentStart; at run time,
// one whose agent stops. Each is reported failed with why and the pane's
// last lines, released as an attempt (counted from the history, the
// dispatcher's own status reports not resetting it), its workspace
// closed, and reported ready — unless that was the last attempt, which
// leaves the task failed. Its slot is free for the next ready task.
func TestDispatcher_DeadWorkersAreReleased(t *testing.T) {
	history := func(id string, n int) []protocol.TaskActivity {
		var acts []protocol.TaskActivity
		for i := range n {
			acts = append(acts,
				protocol.TaskActivity{Kind: protocol.ActivityUnclaimed, Message: fmt.Sprintf("given up (attempt %d of 2): gone", i+1)},
				protocol.TaskActivity{Kind: protocol.ActivityStatus, Status: "failed", Source: "dispatcher"},
				protocol.TaskActivity{Kind: protocol.ActivityStatus, Status: "ready", Source: "dispatcher"})
		}
		return acts
	}
	board := []any{
		task("task-1", "running", 0, map[string]any{"workspace_id": "w2", "pane_id": "w2:p1", "branch": "task/task-1-do-task-1"}),
		task("task-2", "blocked", 0, map[string]any{"workspace_id": "w3", "pane_id": "w3:p1", "branch": "task/task-2-do-task-2"}),
		task("task-3", "ready", 5, nil),
	}
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": board})
		case "pane.get":
			id := c.Params.(*protocol.PaneTarget).PaneID
			return kit.Done(result{"pane": map[string]any{"pane_id": id, "workspace_id": strings.Split(id, ":")[0]}})
		case "agent.get": // a restored pane: a new shell, no agent
			return kit.Done(result{"agent": map[string]any{"pane_id": c.Params.(*protocol.AgentTarget).Target, "name": "task-1"}})
		case "task.get":
			id := c.Params.(*protocol.TaskGetParams).TaskID
			n := 0
			if id == "task-2" {
				n = 1 // its second worker died: its last attempt
			}
			m := task(id, "running", 0, nil)
			m["activities"] = history(id, n)
			return kit.Done(result{"task": m})
		case "pane.read": // a new shell that has not drawn yet
			return kit.Done(result{"read": map[string]any{"text": "\n"}})
		case "worktree.create":
			return kit.Done(result{"workspace": map[string]any{"workspace_id": "w9"}, "root_pane": map[string]any{"pane_id": "w9:p1"}, "worktree": map[string]any{"path": "/wt/w9"}})
		}
		return kit.Done(result{})
	})
	system.Root.Spawn(Props(Options{Session: server, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: server, protocol.OwnerWorktrees: server},
		On: true, MaxRunning: 2, Agent: "claude {title}", BranchPrefix: "task/", AgentStart: 50 * time.Millisecond, MaxAttempts: 2, RetryDelay: time.Hour}))
	got := drainUntil(t, calls,
		`task.report {"task_id":"task-1","status":"failed","message":"the worker's agent is gone (the server restarted) and did not come back within 50ms","source":"dispatcher"}`,
		`task.claim {"task_id":"task-1","release":true,"message":"given up (attempt 1 of 2): the worker's agent is gone`,
		`workspace.close {"workspace_id":"w2"}`,
		`task.report {"task_id":"task-1","status":"ready","message":"returned to ready for another worker (attempt 1 of 2 ended`,
		`task.report {"task_id":"task-2","status":"failed","message":"the dispatcher gave up after 2 attempts: the worker's agent is gone`,
		`task.claim {"task_id":"task-2","release":true,"message":"given up (attempt 2 of 2)`,
		`workspace.close {"workspace_id":"w3"}`,
		// The freed slots: the ready task gets a worker.
		`task.claim {"task_id":"task-3","worker"`,
	)
	got += "\n" + strings.Join(drain(calls), "\n") // and what came after
	if strings.Contains(got, `"task_id":"task-2","status":"ready"`) {
		t.Fatalf("the last attempt's task was returned to ready:\n%s", got)
	}
	if strings.Contains(got, `task.dispatch {"task_id":"task-1"`) || strings.Contains(got, `"task_id":"task-1","worker"`) {
		t.Fatalf("a dead worker's task dispatched again within its backoff:\n%s", got)
	}
}

// At run time, a dispatched worker whose agent stops is released the
// same way, its attempt the one its claim counted.
func TestDispatcher_AgentStoppedAtRunTime(t *testing.T) {
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": []any{task("task-1", "ready", 0, nil)}})
		case "task.claim":
			return kit.Done(result{"task": task("task-1", "ready", 0, nil)})
		case "worktree.create":
			return kit.Done(result{"workspace": map[string]any{"workspace_id": "w2"}, "root_pane": map[string]any{"pane_id": "w2:p1"}, "worktree": map[string]any{"path": "/wt/w2"}})
		case "agent.get":
			return kit.Done(result{"agent": map[string]any{"pane_id": "w2:p1", "agent": "claude"}})
		case "task.dispatch":
			return kit.Done(result{"task": task("task-1", "running", 0, map[string]any{"workspace_id": "w2", "pane_id": "w2:p1"})})
		case "pane.read":
			return kit.Done(result{"read": map[string]any{"text": "error: the build broke\n$ "}})
		}
		return kit.Done(result{})
	})
	d := system.Root.Spawn(Props(Options{Session: server, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: server, protocol.OwnerWorktrees: server},
		On: true, Agent: "claude {title}", BranchPrefix: "task/", MaxAttempts: 3, RetryDelay: time.Hour}))
	for c := next(t, calls); c.method != "task.dispatch"; c = next(t, calls) {
	}
	// The dispatch's answer may still be on its way to the dispatcher when
	// the call is seen: the event is told again until it is acted on (a
	// worker that is not running yet, or already released, ignores it).
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		for {
			system.Root.Send(d, &events.Events{List: []events.Event{{Data: protocol.PaneAgentDetectedEvent{PaneID: "w2:p1", WorkspaceID: "w2"}}}})
			select {
			case <-stopped:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	drainUntil(t, calls,
		`task.report {"task_id":"task-1","status":"failed","message":"the worker's agent stopped; the pane shows:\nerror: the build broke\n$","source":"dispatcher"}`,
		`task.claim {"task_id":"task-1","release":true,"message":"given up (attempt 1 of 3): the worker's agent stopped`,
		`workspace.close {"workspace_id":"w2"}`,
		`task.report {"task_id":"task-1","status":"ready"`,
	)
}

// A reload's Reconfigure turns an off dispatcher on (it reads the board)
// with the new template, and tells the tasks actor it runs.
func TestDispatcher_ReconfigureTurnsOn(t *testing.T) {
	system, server, calls := fakeServer(t, func(c *kit.Call) *kit.Reply {
		switch c.Method {
		case "task.list":
			return kit.Done(result{"tasks": []any{task("task-1", "ready", 0, nil)}})
		case "worktree.create":
			return kit.Done(result{"workspace": map[string]any{"workspace_id": "w2"}, "root_pane": map[string]any{"pane_id": "w2:p1"}, "worktree": map[string]any{"path": "/wt/w2"}})
		}
		return kit.Done(result{})
	})
	told := make(chan bool, 4)
	tasksPID := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *tasks.Dispatching:
			told <- m.On
		case *kit.Call:
			ctx.Forward(server)
		}
	}))
	d := system.Root.Spawn(Props(Options{Session: server, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: tasksPID, protocol.OwnerWorktrees: server}, Agent: "old"}))
	none(t, calls)
	system.Root.Send(d, &Reconfigure{Options: Options{On: true, Agent: "new {id}", MaxRunning: 1}})
	if c := next(t, calls); c.method != "task.list" {
		t.Fatalf("first call %s", c.method)
	}
	select {
	case on := <-told:
		if !on {
			t.Fatal("told off")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tasks actor was not told")
	}
	for {
		c := next(t, calls)
		if c.method == "pane.send_input" {
			if !strings.Contains(c.params, `new task-1`) {
				t.Fatalf("command line %s", c.params)
			}
			return
		}
	}
}
