package tasks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

func testBoard() *board {
	var clock int64
	return newBoard(func() int64 { clock++; return clock })
}

func mustCreate(t *testing.T, b *board, p protocol.TaskCreateParams) *protocol.TaskInfo {
	t.Helper()
	task, _, err := b.create(&p, "test")
	if err != nil {
		t.Fatalf("create %+v: %v", p, err)
	}
	return task
}

func code(err error) string {
	if err == nil {
		return ""
	}
	return protocol.AsError(err).Code
}

// put moves a task to status by allowed steps.
func put(t *testing.T, b *board, id, status string) {
	t.Helper()
	path := map[string][]string{
		protocol.TaskBacklog:   {protocol.TaskBacklog},
		protocol.TaskReady:     {},
		protocol.TaskRunning:   {protocol.TaskRunning},
		protocol.TaskBlocked:   {protocol.TaskRunning, protocol.TaskBlocked},
		protocol.TaskReview:    {protocol.TaskRunning, protocol.TaskReview},
		protocol.TaskDone:      {protocol.TaskRunning, protocol.TaskReview, protocol.TaskDone},
		protocol.TaskFailed:    {protocol.TaskRunning, protocol.TaskFailed},
		protocol.TaskCancelled: {protocol.TaskCancelled},
	}[status]
	for _, s := range path {
		if _, _, err := b.report(id, s, "", "test"); err != nil {
			t.Fatalf("put %s %s: %v", id, s, err)
		}
	}
}

// Every pair of statuses: the allowed moves go, every other one is
// refused invalid_task_transition naming from, to and what is allowed,
// and a refusal changes nothing.
func TestBoard_EveryTransition(t *testing.T) {
	allowed := map[string]bool{
		"backlog>ready": true, "backlog>cancelled": true,
		"ready>running": true, "ready>backlog": true, "ready>failed": true, "ready>cancelled": true,
		"running>running": true, "running>blocked": true, "running>review": true, "running>failed": true, "running>cancelled": true,
		"blocked>running": true, "blocked>failed": true, "blocked>cancelled": true,
		"review>done": true, "review>running": true, "review>failed": true, "review>cancelled": true,
		"failed>ready": true, "failed>cancelled": true,
	}
	for _, from := range protocol.TaskStatuses {
		for _, to := range protocol.TaskStatuses {
			b := testBoard()
			task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
			put(t, b, task.ID, from)
			before := withActivities(task)
			_, c, err := b.report(task.ID, to, "", "test")
			key := from + ">" + to
			if allowed[key] {
				if err != nil || task.Status != to || len(c.events) == 0 {
					t.Errorf("%s: %v, status %s, %d events", key, err, task.Status, len(c.events))
				}
				continue
			}
			if code(err) != protocol.CodeInvalidTaskTransition {
				t.Errorf("%s: %v, want %s", key, err, protocol.CodeInvalidTaskTransition)
				continue
			}
			msg := protocol.AsError(err).Message
			if !strings.Contains(msg, from+" → "+to) {
				t.Errorf("%s: message %q does not name the move", key, msg)
			}
			if len(c.events) != 0 || fmt.Sprint(withActivities(task)) != fmt.Sprint(before) {
				t.Errorf("%s: a refused move changed the task or made events", key)
			}
		}
	}
}

// running → done is refused: review is the gate.
func TestBoard_RunningToDoneIsRefused(t *testing.T) {
	b := testBoard()
	task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	put(t, b, task.ID, protocol.TaskRunning)
	_, _, err := b.report(task.ID, protocol.TaskDone, "", "test")
	if code(err) != protocol.CodeInvalidTaskTransition || !strings.Contains(err.Error(), "running → done refused; from running: running, blocked, review, failed, cancelled") {
		t.Fatalf("running → done: %v", err)
	}
}

// A message alone (the same status) is an activity; the same status
// without one is refused.
func TestBoard_MessageAlone(t *testing.T) {
	b := testBoard()
	task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	if _, _, err := b.report(task.ID, protocol.TaskReady, "", "test"); code(err) != protocol.CodeInvalidTaskTransition {
		t.Fatalf("ready → ready without a message: %v", err)
	}
	got, c, err := b.report(task.ID, protocol.TaskReady, "looked at it", "test")
	last := got.Activities[len(got.Activities)-1]
	if err != nil || got.Status != protocol.TaskReady || got.LastMessage != "looked at it" || last.Kind != protocol.ActivityMessage || len(c.events) != 2 {
		t.Fatalf("a message alone: %v %+v", err, got)
	}
}

// Dependencies: an unknown one is refused; a task waits in the backlog
// until each is done, cannot be made ready by hand before, and is
// released (ready, activity released) when the last one is done. A task
// put in the backlog by hand stays there.
func TestBoard_Dependencies(t *testing.T) {
	b := testBoard()
	if _, _, err := b.create(&protocol.TaskCreateParams{Title: "x", DependsOn: []string{"task-7"}}, "test"); code(err) != protocol.CodeTaskDependencyNotFound {
		t.Fatalf("unknown dependency: %v", err)
	}
	if b.nextID != 1 {
		t.Fatalf("a refused create took id %d", b.nextID-1)
	}
	one := mustCreate(t, b, protocol.TaskCreateParams{Title: "one"})
	two := mustCreate(t, b, protocol.TaskCreateParams{Title: "two"})
	three := mustCreate(t, b, protocol.TaskCreateParams{Title: "three", DependsOn: []string{one.ID, two.ID}})
	parked := mustCreate(t, b, protocol.TaskCreateParams{Title: "parked", Backlog: true})
	if three.Status != protocol.TaskBacklog || parked.Status != protocol.TaskBacklog {
		t.Fatalf("statuses %s %s, want backlog", three.Status, parked.Status)
	}
	if _, _, err := b.report(three.ID, protocol.TaskReady, "", "test"); code(err) != protocol.CodeInvalidTaskTransition || !strings.Contains(err.Error(), "task-1") {
		t.Fatalf("backlog → ready with dependencies not done: %v", err)
	}
	put(t, b, one.ID, protocol.TaskDone)
	if three.Status != protocol.TaskBacklog {
		t.Fatalf("released with one dependency left: %s", three.Status)
	}
	put(t, b, two.ID, protocol.TaskReview)
	_, c, err := b.report(two.ID, protocol.TaskDone, "", "test")
	if err != nil || three.Status != protocol.TaskReady || parked.Status != protocol.TaskBacklog {
		t.Fatalf("after the last dependency: %v, %s, parked %s", err, three.Status, parked.Status)
	}
	if last := three.Activities[len(three.Activities)-1]; last.Kind != protocol.ActivityReleased || last.From != protocol.TaskBacklog || last.Status != protocol.TaskReady {
		t.Fatalf("release activity %+v", last)
	}
	var kinds []string
	for _, e := range c.events {
		kinds = append(kinds, e.EventKind())
	}
	if strings.Join(kinds, ",") != "task_activity,task_updated,task_activity,task_updated" {
		t.Fatalf("events of the done that released: %v", kinds)
	}
	// Created with dependencies all done: ready at once.
	if four := mustCreate(t, b, protocol.TaskCreateParams{Title: "four", DependsOn: []string{one.ID}}); four.Status != protocol.TaskReady {
		t.Fatalf("with done dependencies: %s", four.Status)
	}
}

// A task keeps its newest 256 activities, oldest first, numbered on.
func TestBoard_ActivityCap(t *testing.T) {
	b := testBoard()
	task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	put(t, b, task.ID, protocol.TaskRunning)
	for i := range 400 {
		if _, _, err := b.report(task.ID, protocol.TaskRunning, fmt.Sprintf("step %d", i), "test"); err != nil {
			t.Fatal(err)
		}
	}
	acts := task.Activities
	if len(acts) != protocol.MaxTaskActivities || cap(acts) > 2*protocol.MaxTaskActivities {
		t.Fatalf("%d activities (cap %d), want %d", len(acts), cap(acts), protocol.MaxTaskActivities)
	}
	// created, ready→running, then 400 steps: 402 in all.
	if acts[0].Seq != 402-255 || acts[255].Seq != 402 || acts[255].Message != "step 399" {
		t.Fatalf("kept seq %d…%d (%q)", acts[0].Seq, acts[255].Seq, acts[255].Message)
	}
	for i := 1; i < len(acts); i++ {
		if acts[i].Seq != acts[i-1].Seq+1 {
			t.Fatalf("seq %d after %d", acts[i].Seq, acts[i-1].Seq)
		}
	}
}

// Ids are never reused: not after a refused create, and not after a
// restore (the next id is saved; a file whose next id is behind its
// tasks is corrected).
func TestBoard_IDsNeverReused(t *testing.T) {
	b := testBoard()
	for range 3 {
		mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	}
	saved := b.snapshot()
	saved.Tasks = saved.Tasks[:1] // task-2 and task-3 gone from the file
	r := testBoard()
	r.restore(saved)
	if got := mustCreate(t, r, protocol.TaskCreateParams{Title: "next"}); got.ID != "task-4" {
		t.Fatalf("after a restore: %s, want task-4", got.ID)
	}
	saved = b.snapshot()
	saved.NextID = 2 // behind its own tasks
	r = testBoard()
	r.restore(saved)
	if got := mustCreate(t, r, protocol.TaskCreateParams{Title: "next"}); got.ID != "task-4" {
		t.Fatalf("after a restore with a stale next id: %s, want task-4", got.ID)
	}
}

// What the store is handed shares nothing with the live board.
func TestBoard_FlushSharesNothing(t *testing.T) {
	b := testBoard()
	task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	saved, _ := b.flush()
	put(t, b, task.ID, protocol.TaskRunning)
	b.attach(task, protocol.TaskAssignee{Target: "bob"}, "test", &change{})
	if s := saved[0]; s.Status != protocol.TaskReady || len(s.Activities) != 1 || s.Assignee != nil {
		t.Fatalf("the saved copy changed: %+v", s)
	}
}

// Dispatch takes only a ready task.
func TestBoard_DispatchOnlyReady(t *testing.T) {
	for _, status := range protocol.TaskStatuses {
		b := testBoard()
		task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
		put(t, b, task.ID, status)
		_, _, err := b.dispatch(task.ID, protocol.TaskAssignee{Target: "bob", PaneID: "w1:p1"}, "test")
		if status == protocol.TaskReady {
			if err != nil || task.Status != protocol.TaskRunning || task.Attempts != 1 || task.Assignee.PaneID != "w1:p1" {
				t.Fatalf("dispatch of a ready task: %v %+v", err, task)
			}
			continue
		}
		if code(err) != protocol.CodeTaskNotReady {
			t.Errorf("dispatch of a %s task: %v", status, err)
		}
	}
	if _, _, err := testBoard().dispatch("task-1", protocol.TaskAssignee{}, "test"); code(err) != protocol.CodeTaskNotFound {
		t.Fatalf("dispatch of no task: %v", err)
	}
}

// The assignee's agent status is noted on its live tasks only.
func TestBoard_AgentStatus(t *testing.T) {
	b := testBoard()
	run := mustCreate(t, b, protocol.TaskCreateParams{Title: "run"})
	idle := mustCreate(t, b, protocol.TaskCreateParams{Title: "idle"})
	b.dispatch(run.ID, protocol.TaskAssignee{Target: "bob", PaneID: "w1:p1"}, "test")
	b.attach(idle, protocol.TaskAssignee{Target: "bob", PaneID: "w1:p1"}, "test", &change{})
	c := b.agentStatus("w1:p1", "blocked")
	if len(c.events) != 1 || run.Activities[len(run.Activities)-1].Kind != protocol.ActivityAgentStatus || idle.Activities[len(idle.Activities)-1].Kind == protocol.ActivityAgentStatus {
		t.Fatalf("agent status: %d events", len(c.events))
	}
	if c := b.agentStatus("w1:p9", "blocked"); len(c.events) != 0 {
		t.Fatal("another pane's status was noted")
	}
}

// Claims: recorded with a claimed activity, released once; a final task
// takes none.
func TestBoard_Claim(t *testing.T) {
	b := testBoard()
	task := mustCreate(t, b, protocol.TaskCreateParams{Title: "t"})
	got, c, err := b.claim(&protocol.TaskClaimParams{TaskID: task.ID, Worker: &protocol.TaskWorker{WorkspaceID: "w2", Branch: "task/task-1-t"}}, "dispatcher")
	if err != nil || got.Worker == nil || got.Worker.ClaimedMS == 0 || len(c.events) != 2 {
		t.Fatalf("claim: %v %+v", err, got)
	}
	if _, c, _ = b.claim(&protocol.TaskClaimParams{TaskID: task.ID, Release: true}, "dispatcher"); task.Worker != nil || len(c.events) != 2 {
		t.Fatalf("release: %+v", task.Worker)
	}
	if _, c, _ = b.claim(&protocol.TaskClaimParams{TaskID: task.ID, Release: true}, "dispatcher"); len(c.events) != 0 {
		t.Fatal("a second release made events")
	}
	put(t, b, task.ID, protocol.TaskCancelled)
	if _, _, err := b.claim(&protocol.TaskClaimParams{TaskID: task.ID, Worker: &protocol.TaskWorker{}}, "dispatcher"); code(err) != protocol.CodeInvalidTaskTransition {
		t.Fatalf("claim of a cancelled task: %v", err)
	}
}

// A moved pane keeps its tasks: the assignee follows it to its new id
// (and a target that was the pane id with it); another terminal that
// took the old id does not.
func TestBoard_AssigneeFollowsAMovedPane(t *testing.T) {
	b := testBoard()
	byName := mustCreate(t, b, protocol.TaskCreateParams{Title: "by name"})
	byPane := mustCreate(t, b, protocol.TaskCreateParams{Title: "by pane"})
	b.attach(byName, protocol.TaskAssignee{Target: "bob", PaneID: "w1:p2", TerminalID: "term_1"}, "test", &change{})
	b.attach(byPane, protocol.TaskAssignee{Target: "w1:p2", PaneID: "w1:p2", TerminalID: "term_1"}, "test", &change{})
	if c := b.paneMoved("w1:p2", "w2:p1", "term_9"); len(c.events) != 0 {
		t.Fatal("another terminal moved the assignee")
	}
	c := b.paneMoved("w1:p2", "w2:p1", "term_1")
	if len(c.events) != 2 || byName.Assignee.PaneID != "w2:p1" || byName.Assignee.Target != "bob" || byPane.Assignee.Target != "w2:p1" {
		t.Fatalf("after the move: %+v %+v", byName.Assignee, byPane.Assignee)
	}
}
