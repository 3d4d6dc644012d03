//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The task board's answers are bounded by what was asked (issue 44, item
// 5): a report answers with what it changed, not the task's history;
// task.get answers its newest activities with their count and pages
// back; a report's text past the cap is refused naming the limit.
func TestTaskBoard_AnswersBounded(t *testing.T) {
	t.Parallel()
	s := NewHome(t).Start(t, "tb-bounded")
	OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": "big reports"}), "task_info")
	OK[protocol.TaskInfoResult](t, s.CallT(t, "task.report", map[string]any{"task_id": "task-1", "status": "running"}), "task_info")
	msg := strings.Repeat("x", protocol.MaxTaskMessage)
	c := s.Dial(t)
	defer c.Close()
	largest := 0
	for i := range 200 {
		line := fmt.Sprintf(`{"id":"r%d","method":"task.report","params":{"task_id":"task-1","status":"running","message":"%d %s"}}`, i, i, msg[:len(msg)-8])
		raw := MustRoundTrip(t, c, line)
		largest = max(largest, len(raw))
		if i == 199 {
			res := OK[protocol.TaskInfoResult](t, DecodeResponse(t, raw), "task_info")
			if len(res.Task.Activities) != 1 || !strings.HasPrefix(res.Task.Activities[0].Message, "199 ") || res.Task.Status != protocol.TaskRunning {
				t.Fatalf("report answer: %d activities, status %s", len(res.Task.Activities), res.Task.Status)
			}
		}
	}
	// One report's message (as its activity and last_message) and the
	// task's header, not 200 of them.
	if largest > 2*protocol.MaxTaskMessage+4<<10 {
		t.Fatalf("a report answered %d bytes; want at most one message's worth", largest)
	}

	// The task keeps its newest messages up to MaxTaskActivityBytes.
	raw := MustRoundTrip(t, c, `{"id":"g","method":"task.get","params":{"task_id":"task-1"}}`)
	got := OK[protocol.TaskInfoResult](t, DecodeResponse(t, raw), "task_info")
	if len(raw) > protocol.MaxTaskActivityBytes+protocol.MaxTaskMessage+8<<10 || got.Task.ActivityCount != len(got.Task.Activities) || got.Task.ActivityCount < 2 {
		t.Fatalf("task.get: %d activities of %d kept, %d bytes", len(got.Task.Activities), got.Task.ActivityCount, len(raw))
	}
	got = OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": "task-1", "activity_limit": 5}), "task_info")
	if n := len(got.Task.Activities); n != 5 || !strings.HasPrefix(got.Task.Activities[4].Message, "199 ") || got.Task.ActivityCount <= 5 {
		t.Fatalf("task.get activity_limit 5: %d activities of %d", n, got.Task.ActivityCount)
	}
	// Paging back: the activities before the oldest answered.
	oldest := got.Task.Activities[0].Seq
	older := OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": "task-1", "activity_limit": 3, "activities_before": oldest}), "task_info")
	if n := len(older.Task.Activities); n != 3 || older.Task.Activities[2].Seq != oldest-1 {
		t.Fatalf("page before seq %d: %+v", oldest, older.Task.Activities)
	}
	if m := Fail(t, s.CallT(t, "task.get", map[string]any{"task_id": "task-1", "activity_limit": 1000}), protocol.CodeInvalidParams); !strings.Contains(m, "256") {
		t.Fatalf("activity_limit past the cap: %s", m)
	}
	tooLong := strings.Repeat("y", protocol.MaxTaskMessage+1)
	if m := Fail(t, s.CallT(t, "task.report", map[string]any{"task_id": "task-1", "status": "running", "message": tooLong}), protocol.CodeInvalidParams); !strings.Contains(m, fmt.Sprint(protocol.MaxTaskMessage)) {
		t.Fatalf("a message past the cap: %s", m)
	}
	// The list gives no activities, only their count.
	list := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{}), "task_list")
	if len(list.Tasks) != 1 || list.Tasks[0].Activities != nil || list.Tasks[0].ActivityCount == 0 {
		t.Fatalf("list %+v", list)
	}
}

// task.list is paged: limit and offset, the total and the next page's
// offset; without a limit every task is listed, as Herdr's does.
func TestTaskBoard_ListPaged(t *testing.T) {
	t.Parallel()
	s := NewHome(t).Start(t, "tb-paged")
	for i := range 5 {
		OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": fmt.Sprint("t", i)}), "task_info")
	}
	page := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{"limit": 2}), "task_list")
	if len(page.Tasks) != 2 || page.Total != 5 || page.NextOffset != 2 || page.Tasks[0].ID != "task-1" {
		t.Fatalf("first page %+v", page)
	}
	page = OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{"limit": 2, "offset": page.NextOffset}), "task_list")
	if len(page.Tasks) != 2 || page.Tasks[0].ID != "task-3" || page.NextOffset != 4 {
		t.Fatalf("second page %+v", page)
	}
	page = OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{"limit": 2, "offset": 4}), "task_list")
	if len(page.Tasks) != 1 || page.Tasks[0].ID != "task-5" || page.NextOffset != 0 {
		t.Fatalf("last page %+v", page)
	}
	if all := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{}), "task_list"); len(all.Tasks) != 5 || all.Total != 5 {
		t.Fatalf("unpaged %+v", all)
	}
	Fail(t, s.CallT(t, "task.list", map[string]any{"limit": protocol.MaxTaskListLimit + 1}), protocol.CodeInvalidParams)
	Fail(t, s.CallT(t, "task.list", map[string]any{"offset": -1}), protocol.CodeInvalidParams)
	out, _, code := s.CLI("task", "list", "--json", "--limit", "1", "--offset", "1")
	if code != 0 || !strings.Contains(out, `"task-2"`) || strings.Contains(out, `"task-1"`) || !strings.Contains(out, `"next_offset":2`) {
		t.Fatalf("task list --limit 1 --offset 1: %d %s", code, out)
	}
}

// task.remove takes a done or cancelled task off the board (and the
// disk: it stays gone after a restart) and refuses an open one; the
// retention ([tasks] keep_done) removes the oldest finished past it, not
// one a backlog task depends on.
func TestTaskBoard_RemoveAndRetention(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	h.WriteConfig(t, "[tasks]\nkeep_done = 2\n")
	s := h.Start(t, "tb-retain")
	for i := range 6 {
		OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": fmt.Sprint("t", i)}), "task_info")
	}
	// task-7 waits in the backlog on task-1.
	OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": "after one", "depends_on": []string{"task-1"}, "backlog": true}), "task_info")
	sub := s.Dial(t)
	defer sub.Close()
	if ack, err := sub.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"task.removed"}]}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %v %s", err, ack)
	}

	if m := Fail(t, s.CallT(t, "task.remove", map[string]any{"task_id": "task-6"}), protocol.CodeInvalidTaskTransition); !strings.Contains(m, "ready") || !strings.Contains(m, "cancel") {
		t.Fatalf("removing a ready task: %s", m)
	}
	Fail(t, s.CallT(t, "task.remove", map[string]any{"task_id": "task-99"}), protocol.CodeTaskNotFound)
	for i := 1; i <= 5; i++ {
		OK[protocol.TaskInfoResult](t, s.CallT(t, "task.report", map[string]any{"task_id": fmt.Sprint("task-", i), "status": "cancelled"}), "task_info")
	}
	// Five cancelled, two kept: task-1 (task-7 depends on it) and the
	// newest finished, task-5... plus task-4 as keep_done's second.
	list := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{"status": []string{"cancelled"}}), "task_list")
	var ids []string
	for _, task := range list.Tasks {
		ids = append(ids, task.ID)
	}
	if strings.Join(ids, ",") != "task-1,task-4,task-5" {
		t.Fatalf("cancelled tasks kept: %v; want task-1 (a dependency), task-4, task-5", ids)
	}
	if line, err := sub.ReadLine(); err != nil || !strings.Contains(string(line), `"task_removed"`) || !strings.Contains(string(line), `"task-2"`) || !strings.Contains(string(line), `"retention"`) {
		t.Fatalf("task_removed event: %v %s", err, line)
	}
	if out, errOut, code := s.CLI("task", "remove", "task-5"); code != 0 {
		t.Fatalf("task remove: %d %s %s", code, out, errOut)
	}
	Fail(t, s.CallT(t, "task.get", map[string]any{"task_id": "task-5"}), protocol.CodeTaskNotFound)
	if m := Fail(t, s.CallT(t, "task.remove", map[string]any{"task_id": "task-1"}), protocol.CodeInvalidTaskTransition); !strings.Contains(m, "task-7") {
		t.Fatalf("removing a dependency: %s", m)
	}
	store := filepath.Join(filepath.Dir(h.SessionFile("tb-retain")), "tasks")
	WaitFor(t, "the removed tasks' files gone", func() bool {
		_, err5 := os.Stat(filepath.Join(store, "task-5.json"))
		_, err2 := os.Stat(filepath.Join(store, "task-2.json"))
		return os.IsNotExist(err5) && os.IsNotExist(err2)
	})

	StopAndWait(t, s)
	s = h.Start(t, "tb-retain")
	Fail(t, s.CallT(t, "task.get", map[string]any{"task_id": "task-5"}), protocol.CodeTaskNotFound)
	OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": "task-4"}), "task_info")
	// Ids are not reused after a removal.
	if got := OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": "next"}), "task_info"); got.Task.ID != "task-8" {
		t.Fatalf("next id after removals and a restart: %s", got.Task.ID)
	}
}

// The board has a store of its own: one change writes the changed task's
// file, the others' untouched, and session.json holds no tasks.
func TestTaskBoard_OneChangeWritesOneTask(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "tb-store")
	const n = 40
	for i := range n {
		OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": fmt.Sprint("t", i), "description": strings.Repeat("d", 2000)}), "task_info")
	}
	store := filepath.Join(filepath.Dir(h.SessionFile("tb-store")), "tasks")
	files := func() map[string][]byte {
		out := map[string][]byte{}
		entries, _ := os.ReadDir(store)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue // a write in progress
			}
			b, err := os.ReadFile(filepath.Join(store, e.Name()))
			if err == nil {
				out[e.Name()] = b
			}
		}
		return out
	}
	WaitFor(t, "every task in the store", func() bool {
		f := files()
		return len(f) == n+1 && bytes.Contains(f["board.json"], []byte(fmt.Sprintf(`"next_id":%d`, n+1)))
	})
	before := files()
	OK[protocol.TaskInfoResult](t, s.CallT(t, "task.report", map[string]any{"task_id": "task-7", "status": "running", "message": "step"}), "task_info")
	var after map[string][]byte
	WaitFor(t, "task-7's file rewritten", func() bool {
		after = files()
		return !bytes.Equal(after["task-7.json"], before["task-7.json"])
	})
	var changed []string
	for name, b := range after {
		if !bytes.Equal(b, before[name]) {
			changed = append(changed, name)
		}
	}
	if len(changed) != 1 || len(after) != len(before) {
		t.Fatalf("one report changed %v (%d files, %d before); want task-7.json alone", changed, len(after), len(before))
	}
	var task protocol.TaskInfo
	if err := json.Unmarshal(after["task-7.json"], &task); err != nil || task.Status != protocol.TaskRunning || task.LastMessage != "step" {
		t.Fatalf("task-7.json: %v %+v", err, task)
	}
	if len(after["task-7.json"]) > 8<<10 {
		t.Fatalf("task-7.json is %d bytes", len(after["task-7.json"]))
	}
	StopAndWait(t, s)
	if b, err := os.ReadFile(h.SessionFile("tb-store")); err != nil || bytes.Contains(b, []byte(`"tasks"`)) {
		t.Fatalf("session.json holds the tasks (or is unreadable: %v)", err)
	}
	s = h.Start(t, "tb-store")
	if got := OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": "task-7"}), "task_info"); got.Task.Status != protocol.TaskRunning {
		t.Fatalf("restored task-7 %+v", got.Task)
	}
	if list := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{}), "task_list"); list.Total != n {
		t.Fatalf("restored %d tasks, want %d", list.Total, n)
	}
}

// A session.json from before the store, the board inside it, still
// loads: its tasks move into the store, and the next save of session.json
// leaves them out.
func TestTaskBoard_MigratesSessionJSON(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "tb-migrate")
	StopAndWait(t, s)
	path := h.SessionFile("tb-migrate")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["tasks"] = map[string]any{"next_id": 9, "tasks": []any{
		map[string]any{"id": "task-3", "title": "old one", "status": "review", "priority": 1, "depends_on": []string{}, "attempts": 0, "created_ms": 1, "updated_ms": 2,
			"activities": []any{map[string]any{"seq": 1, "at_ms": 1, "kind": "created", "status": "ready"}}},
		// Finished now: [tasks] keep_done_days keeps it.
		map[string]any{"id": "task-5", "title": "old two", "status": "done", "priority": 0, "depends_on": []string{}, "attempts": 0, "created_ms": 1, "updated_ms": time.Now().UnixMilli()},
	}}
	raw, _ = json.Marshal(doc)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s = h.Start(t, "tb-migrate")
	if got := OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": "task-3"}), "task_info"); got.Task.Title != "old one" || got.Task.Status != protocol.TaskReview || len(got.Task.Activities) != 1 {
		t.Fatalf("migrated task-3 %+v", got.Task)
	}
	if got := OK[protocol.TaskInfoResult](t, s.CallT(t, "task.create", map[string]any{"title": "new"}), "task_info"); got.Task.ID != "task-9" {
		t.Fatalf("next id after the migration: %s", got.Task.ID)
	}
	store := filepath.Join(filepath.Dir(path), "tasks")
	for _, name := range []string{"task-3.json", "task-5.json", "board.json"} {
		if _, err := os.Stat(filepath.Join(store, name)); err != nil {
			t.Fatalf("the store lacks %s: %v", name, err)
		}
	}
	StopAndWait(t, s)
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(`"old one"`)) {
		t.Fatal("session.json still holds the migrated board after a save")
	}
	s = h.Start(t, "tb-migrate")
	list := OK[protocol.TaskList](t, s.CallT(t, "task.list", map[string]any{}), "task_list")
	if list.Total != 3 {
		t.Fatalf("after the migration and a restart: %+v", list)
	}
}
