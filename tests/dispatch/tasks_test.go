//go:build unix

package dispatch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The task board against a real server, through the CLI: create, list,
// get, board, attach, dispatch (the prompt reaches the fake Claude's
// pane, which logs every line it reads), report with the state machine's
// refusals, the dependency released when its task is done, the assignee's
// agent status as activities, every task event seen by a subscriber, and
// a plugin's [[events]] hook on task.created.
func TestTasks_BoardThroughTheCLI(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	hookLog := filepath.Join(h.Dir, "hook.log")
	plugin := filepath.Join(h.Dir, "plugin")
	if err := os.MkdirAll(plugin, 0o700); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"test.tasks\"\nname = \"N\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\nplatforms = [\"linux\", \"macos\"]\n" +
		"[[events]]\non = \"task.created\"\ncommand = [\"sh\", \"-c\", \"printf '%s\\\\n' \\\"$HERDR_PLUGIN_EVENT_JSON\\\" >> '" + hookLog + "'\"]\n"
	if err := os.WriteFile(filepath.Join(plugin, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "tasks")
	if out, errOut, code := s.CLI("plugin", "link", plugin); code != 0 {
		t.Fatalf("plugin link: exit %d %s %s", code, out, errOut)
	}

	// The subscriber, before anything happens.
	sub := s.Dial(t)
	defer sub.Close()
	if ack, err := sub.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"task.created"},{"type":"task.updated"},{"type":"task.activity"}]}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %v %s", err, ack)
	}

	// The agent: a fake Claude that logs each line it reads.
	bin := Mkdir(t, s, "bin")
	readLog := filepath.Join(s.Home.Dir, "claude-read.log")
	script := strings.Replace(FakeClaudeCLI, "while read cue; do\n", "while read cue; do\n  echo \"$cue\" >> '"+readLog+"'\n", 1)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}}).RootPane.PaneID
	s.Run(t, p, "claude")
	WaitFor(t, "claude detected", func() bool {
		out, _, code := s.CLI("agent", "list")
		return code == 0 && strings.Contains(out, `"agent":"claude"`)
	})
	AgentCLI(t, s, "agent", "rename", p, "bob")

	task := func(out string) protocol.TaskInfo {
		t.Helper()
		return OK[protocol.TaskInfoResult](t, CLIResponse(t, out), "task_info").Task
	}
	first := task(AgentCLI(t, s, "task", "create", "--title", "Add retry policy", "--description", "Retry failed uploads three times.", "--cwd", h.Dir, "--priority", "1"))
	if first.ID != "task-1" || first.Status != protocol.TaskReady || first.Cwd != h.Dir || len(first.Activities) != 1 || first.Activities[0].Kind != protocol.ActivityCreated {
		t.Fatalf("create: %+v", first)
	}
	second := task(AgentCLI(t, s, "task", "create", "--title", "Document retries", "--depends-on", "task-1"))
	if second.ID != "task-2" || second.Status != protocol.TaskBacklog || len(second.DependsOn) != 1 {
		t.Fatalf("create with a dependency not done: %+v", second)
	}
	AgentCLIFail(t, s, protocol.CodeTaskDependencyNotFound, "task", "create", "--title", "x", "--depends-on", "task-9")
	AgentCLIUsage(t, s, "task", "create", "--title", "")
	AgentCLIUsage(t, s, "task", "report", "task-1", "finished")
	AgentCLIUsage(t, s, "task", "get", "nine")
	AgentCLIFail(t, s, protocol.CodeTaskNotFound, "task", "get", "task-9")

	// The list: by priority (task-2's 0 before task-1's 1), no activities.
	list := OK[protocol.TaskList](t, CLIResponse(t, AgentCLI(t, s, "task", "list")), "task_list").Tasks
	if len(list) != 2 || list[0].ID != "task-2" || list[1].ID != "task-1" || list[0].Activities != nil {
		t.Fatalf("list: %+v", list)
	}
	list = OK[protocol.TaskList](t, CLIResponse(t, AgentCLI(t, s, "task", "list", "--status", "ready", "--status", "running")), "task_list").Tasks
	if len(list) != 1 || list[0].ID != "task-1" {
		t.Fatalf("list --status ready --status running: %+v", list)
	}

	// Dispatch: only a ready task, only a live agent.
	AgentCLIFail(t, s, protocol.CodeTaskNotReady, "task", "dispatch", "task-2", "bob")
	AgentCLIFail(t, s, protocol.CodeAgentNotFound, "task", "dispatch", "task-1", "nobody")
	if got := task(AgentCLI(t, s, "task", "get", "task-1")); got.Status != protocol.TaskReady || got.Assignee != nil || got.Attempts != 0 {
		t.Fatalf("a refused dispatch changed the task: %+v", got)
	}
	running := task(AgentCLI(t, s, "task", "dispatch", "task-1", "bob"))
	if running.Status != protocol.TaskRunning || running.Assignee == nil || running.Assignee.PaneID != p || running.Assignee.TerminalID == "" || running.Attempts != 1 {
		t.Fatalf("dispatch: %+v", running)
	}
	WaitFor(t, "the prompt in the agent's pane", func() bool {
		b, _ := os.ReadFile(readLog)
		return strings.Contains(string(b), "Task task-1: Add retry policy") && strings.Contains(string(b), "Retry failed uploads three times.") &&
			strings.Contains(string(b), "task report task-1 review")
	})
	AgentCLIFail(t, s, protocol.CodeTaskNotReady, "task", "dispatch", "task-1", "bob")

	// The agent's pane moves to a workspace of its own: the assignee
	// follows it to its new id.
	if resp := s.Call("pane.move", map[string]any{"pane_id": p, "destination": map[string]any{"type": "new_workspace"}}); resp.Error != nil {
		t.Fatalf("pane.move: %+v", resp.Error)
	}
	var moved string
	WaitFor(t, "the assignee at the pane's new id", func() bool {
		a := task(AgentCLI(t, s, "task", "get", "task-1")).Assignee
		moved = a.PaneID
		return a.PaneID != p && a.TerminalID == running.Assignee.TerminalID
	})
	p = moved

	// The assignee's agent goes working: an agent_status activity.
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": p, "text": "w\r"}), "ok")
	WaitFor(t, "the agent's status on the task", func() bool {
		for _, a := range task(AgentCLI(t, s, "task", "get", "task-1")).Activities {
			if a.Kind == protocol.ActivityAgentStatus && a.Status == "working" {
				return true
			}
		}
		return false
	})

	// The state machine: running → done refused; review is the gate.
	AgentCLIFail(t, s, protocol.CodeInvalidTaskTransition, "task", "report", "task-1", "done")
	AgentCLIFail(t, s, protocol.CodeInvalidTaskTransition, "task", "report", "task-2", "running")
	progress := task(AgentCLI(t, s, "task", "report", "task-1", "running", "--message", "half way"))
	if progress.Status != protocol.TaskRunning || progress.LastMessage != "half way" {
		t.Fatalf("progress: %+v", progress)
	}
	task(AgentCLI(t, s, "task", "report", "task-1", "review", "--message", "retries added"))
	done := task(AgentCLI(t, s, "task", "report", "task-1", "done"))
	if done.Status != protocol.TaskDone {
		t.Fatalf("done: %+v", done)
	}
	AgentCLIFail(t, s, protocol.CodeInvalidTaskTransition, "task", "report", "task-1", "running")
	released := task(AgentCLI(t, s, "task", "get", "task-2"))
	if last := released.Activities[len(released.Activities)-1]; released.Status != protocol.TaskReady || last.Kind != protocol.ActivityReleased {
		t.Fatalf("the dependent task after its dependency is done: %+v", released)
	}

	// Attach without dispatch: assigned, attempts counted, status kept.
	attached := task(AgentCLI(t, s, "task", "attach", "task-2", p))
	if attached.Status != protocol.TaskReady || attached.Assignee == nil || attached.Assignee.Target != p || attached.Attempts != 1 ||
		attached.Activities[len(attached.Activities)-1].Kind != protocol.ActivityAssigned {
		t.Fatalf("attach: %+v", attached)
	}

	board, errOut, code := s.CLI("task", "board")
	if code != 0 || errOut != "" {
		t.Fatalf("board: %d %s", code, errOut)
	}
	for _, want := range []string{"READY (1)", "DONE (1)", "RUNNING (0)", "task-1   Add retry policy  @bob", "task-2   Document retries  @" + p, "status review → done", "assigned"} {
		if !strings.Contains(board, want) {
			t.Fatalf("board lacks %q:\n%s", want, board)
		}
	}

	// The subscriber saw every step of task-1, in order.
	var seen []string
	deadline := time.Now().Add(10 * time.Second)
	for !containsAll(seen, "task_created:task-1", "task_activity:task-1:dispatched", "task_updated:task-1:ready>running",
		"task_updated:task-1:review>done", "task_activity:task-2:released", "task_updated:task-2:backlog>ready") {
		if time.Now().After(deadline) {
			t.Fatalf("events seen: %v", seen)
		}
		_ = sub.Conn().SetReadDeadline(deadline)
		line, err := sub.ReadLine()
		if err != nil {
			t.Fatalf("read event: %v (seen %v)", err, seen)
		}
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				Task           protocol.TaskInfo     `json:"task"`
				PreviousStatus string                `json:"previous_status"`
				TaskID         string                `json:"task_id"`
				Activity       protocol.TaskActivity `json:"activity"`
			} `json:"data"`
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("event %s: %v", line, err)
		}
		switch ev.Event {
		case "task_created":
			seen = append(seen, ev.Event+":"+ev.Data.Task.ID)
		case "task_updated":
			if ev.Data.Task.Activities != nil {
				t.Fatalf("task_updated carries activities: %s", line)
			}
			seen = append(seen, ev.Event+":"+ev.Data.Task.ID+":"+ev.Data.PreviousStatus+">"+ev.Data.Task.Status)
		case "task_activity":
			seen = append(seen, ev.Event+":"+ev.Data.TaskID+":"+ev.Data.Activity.Kind)
		}
	}

	// The plugin's hook ran on each task.created.
	WaitFor(t, "the task.created hook", func() bool {
		b, _ := os.ReadFile(hookLog)
		return strings.Contains(string(b), `"id":"task-1"`) && strings.Contains(string(b), `"id":"task-2"`)
	})
}

// containsAll reports whether seen holds each of want, in want's order.
func containsAll(seen []string, want ...string) bool {
	i := 0
	for _, s := range seen {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	return i == len(want)
}

// Tasks, their activities and the next id outlive the server: a clean
// stop and a new start give the same board, and the next task is not
// given an id the board had.
func TestTasks_PersistAcrossARestart(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "keep")
	for _, title := range []string{"one", "two", "three"} {
		AgentCLI(t, s, "task", "create", "--title", title)
	}
	AgentCLI(t, s, "task", "report", "task-2", "running", "--message", "on it")
	AgentCLI(t, s, "task", "report", "task-3", "cancelled")
	// A claim is on disk when it is answered: the dispatcher's record
	// before it prompts a worker.
	OK[protocol.TaskInfoResult](t, s.Call("task.claim", map[string]any{"task_id": "task-2", "worker": map[string]any{"workspace_id": "w1", "branch": "task/task-2-two"}}), "task_info")
	store := filepath.Join(filepath.Dir(h.SessionFile("keep")), "tasks")
	if data, err := os.ReadFile(filepath.Join(store, "task-2.json")); err != nil || !strings.Contains(string(data), `"branch":"task/task-2-two"`) {
		t.Fatalf("the claim was answered before the task's file held it (%v):\n%s", err, data)
	}
	before := OK[protocol.TaskList](t, CLIResponse(t, AgentCLI(t, s, "task", "list")), "task_list").Tasks
	beforeGet := AgentCLI(t, s, "task", "get", "task-2")
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	s.WaitExit(t)
	data, err := os.ReadFile(filepath.Join(store, "board.json"))
	if err != nil || !strings.Contains(string(data), `"next_id":4`) {
		t.Fatalf("the task store's board.json (%v) lacks the board's next id:\n%s", err, data)
	}

	s2 := h.Start(t, "keep")
	after := OK[protocol.TaskList](t, CLIResponse(t, AgentCLI(t, s2, "task", "list")), "task_list").Tasks
	if b, a := MustJSON(t, before), MustJSON(t, after); a != b {
		t.Fatalf("restored board differs.\nbefore:\n%s\nafter:\n%s", b, a)
	}
	if afterGet := AgentCLI(t, s2, "task", "get", "task-2"); afterGet != beforeGet {
		t.Fatalf("restored task differs.\nbefore:\n%s\nafter:\n%s", beforeGet, afterGet)
	}
	next := OK[protocol.TaskInfoResult](t, CLIResponse(t, AgentCLI(t, s2, "task", "create", "--title", "four")), "task_info").Task
	if next.ID != "task-4" {
		t.Fatalf("the next task after a restart is %s, want task-4", next.ID)
	}
}

// A live handoff carries the board: the new server answers the same
// tasks with their activities and goes on numbering.
func TestTasks_LiveHandoffCarriesTheBoard(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	StopHeir(t, s) // the server that takes over is not the test's child
	s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir})
	AgentCLI(t, s, "task", "create", "--title", "one")
	AgentCLI(t, s, "task", "create", "--title", "two", "--depends-on", "task-1")
	AgentCLI(t, s, "task", "report", "task-1", "running", "--message", "on it")
	before := AgentCLI(t, s, "task", "get", "task-1")
	beforeList := AgentCLI(t, s, "task", "list")
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	if after := AgentCLI(t, s, "task", "get", "task-1"); after != before {
		t.Fatalf("task after the handoff differs.\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if after := AgentCLI(t, s, "task", "list"); after != beforeList {
		t.Fatalf("board after the handoff differs.\nbefore:\n%s\nafter:\n%s", beforeList, after)
	}
	if next := OK[protocol.TaskInfoResult](t, CLIResponse(t, AgentCLI(t, s, "task", "create", "--title", "three")), "task_info").Task; next.ID != "task-3" {
		t.Fatalf("the next task after the handoff is %s, want task-3", next.ID)
	}
}
