package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// Task params decode through the table and are checked field by field.
func TestTask_DecodeAndValidate(t *testing.T) {
	for _, c := range []struct {
		method, params, code, inMsg string
	}{
		{"task.create", `{"title":"Add retry policy","depends_on":["task-1"],"cwd":"/abs","priority":-2,"backlog":true}`, "", ""},
		{"task.create", `{}`, CodeInvalidParams, "title: missing"},
		{"task.create", `{"title":"   "}`, CodeInvalidParams, "title: missing"},
		{"task.create", `{"title":"` + strings.Repeat("x", 201) + `"}`, CodeInvalidParams, "title: longer than 200"},
		{"task.create", `{"title":"a\u001b]52;c;eA==\u0007"}`, CodeInvalidParams, "title: holds control"},
		{"task.create", `{"title":"t","description":"` + strings.Repeat("x", 16<<10+1) + `"}`, CodeInvalidParams, "description"},
		{"task.create", `{"title":"t","cwd":"rel/dir"}`, CodeInvalidParams, "cwd: must be an absolute path"},
		{"task.create", `{"title":"t","depends_on":["task-0"]}`, CodeInvalidParams, "depends_on[0]"},
		{"task.create", `{"title":"t","depends_on":["task-1","task-1"]}`, CodeInvalidParams, "listed twice"},
		{"task.create", `{"title":"t","priority":"high"}`, CodeInvalidParams, "priority"},
		{"task.list", `{}`, "", ""},
		{"task.list", `{"status":"ready"}`, "", ""},
		{"task.list", `{"status":["ready","done"]}`, "", ""},
		{"task.list", `{"status":"finished"}`, CodeInvalidParams, "status"},
		{"task.list", `{"status":3}`, CodeInvalidParams, "status"},
		{"task.get", `{"task_id":"task-3"}`, "", ""},
		{"task.get", `{}`, CodeInvalidParams, "task_id: missing"},
		{"task.get", `{"task_id":"3"}`, CodeInvalidParams, "task_id: expected a task id"},
		{"task.attach", `{"task_id":"task-3","target":"reviewer"}`, "", ""},
		{"task.attach", `{"task_id":"task-3"}`, CodeInvalidParams, "target: missing"},
		{"task.dispatch", `{"task_id":"task-3","target":"w1:p2","prompt":"go"}`, "", ""},
		{"task.report", `{"task_id":"task-3","status":"review","message":"ok"}`, "", ""},
		{"task.report", `{"task_id":"task-3"}`, CodeInvalidParams, "status: missing"},
		{"task.report", `{"task_id":"task-3","status":"finished"}`, CodeInvalidParams, "status: expected one of"},
		{"task.claim", `{"task_id":"task-3","worker":{"workspace_id":"w2","path":"/wt"}}`, "", ""},
		{"task.claim", `{"task_id":"task-3","release":true}`, "", ""},
		{"task.claim", `{"task_id":"task-3"}`, CodeInvalidParams, "exactly one of worker and release"},
		{"task.claim", `{"task_id":"task-3","worker":{},"release":true}`, CodeInvalidParams, "exactly one of worker and release"},
		{"task.claim", `{"task_id":"task-3","worker":{"path":"wt"}}`, CodeInvalidParams, "worker.path"},
		{"task.run", `{}`, "", ""},
		{"task.run", `{"max_running":0}`, CodeInvalidParams, "max_running"},
	} {
		_, err := DecodeParams(c.method, json.RawMessage(c.params))
		if c.code == "" {
			if err != nil {
				t.Errorf("%s %.80s: %v", c.method, c.params, err)
			}
			continue
		}
		if e := AsError(err); err == nil || e.Code != c.code || !strings.Contains(e.Message, c.inMsg) {
			t.Errorf("%s %.80s: %v, want %s mentioning %q", c.method, c.params, err, c.code, c.inMsg)
		}
	}
}

// The state machine as the contract lists it.
func TestTask_Transitions(t *testing.T) {
	if TaskTransitionAllowed(TaskRunning, TaskDone) {
		t.Error("running → done is allowed")
	}
	for _, final := range []string{TaskDone, TaskCancelled} {
		for _, to := range TaskStatuses {
			if TaskTransitionAllowed(final, to) {
				t.Errorf("%s → %s is allowed", final, to)
			}
		}
		if e := TaskTransitionError("task-1", final, TaskReady); !strings.Contains(e.Message, "is final") {
			t.Errorf("%s: %s", final, e.Message)
		}
	}
	if e := TaskTransitionError("task-1", TaskRunning, TaskDone); e.Code != CodeInvalidTaskTransition || !strings.Contains(e.Message, "from running: running, blocked, review, failed, cancelled") {
		t.Errorf("running → done: %s", e.Message)
	}
}

// Ids: task-N, N from 1, nothing else.
func TestTask_Numbers(t *testing.T) {
	for id, want := range map[string]uint64{"task-1": 1, "task-42": 42} {
		if n, ok := TaskNumber(id); !ok || n != want || TaskID(n) != id {
			t.Errorf("%s: %d %v", id, n, ok)
		}
	}
	for _, id := range []string{"", "task-", "task-0", "task-01", "task--1", "task-1x", "Task-1", "task-99999999999999999999"} {
		if _, ok := TaskNumber(id); ok {
			t.Errorf("%q is a task id", id)
		}
	}
}

// The methods are extensions, their results and events in the schema's lists.
func TestTask_Registered(t *testing.T) {
	for _, m := range taskMethods {
		if !m.Extension || m.Since != "" || m.Owner != OwnerTasks {
			t.Errorf("%s: extension %v, since %q, owner %s", m.Name, m.Extension, m.Since, m.Owner)
		}
	}
	kinds := map[string]bool{}
	for _, k := range LifecycleKinds {
		kinds[k] = true
	}
	if !HerdrEventKind("pane_created") {
		t.Error("pane_created is not a Herdr kind")
	}
	for _, k := range []string{"task_created", "task_updated", "task_activity"} {
		if !kinds[k] {
			t.Errorf("%s is not a lifecycle kind", k)
		}
		if HerdrEventKind(k) {
			t.Errorf("%s is taken for a Herdr 0.9 kind", k)
		}
		if _, ok := SubscriptionKind(strings.Replace(k, "_", ".", 1)); !ok {
			t.Errorf("%s cannot be subscribed to", k)
		}
	}
}
