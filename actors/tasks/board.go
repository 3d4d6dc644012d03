package tasks

import (
	"slices"
	"sort"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// board is the tasks as plain data: the state machine, dependencies and
// activities, with no actor code, so its rules are tested on their own.
// Every change returns the events it makes; the actor publishes them
// after the change is kept.
type board struct {
	tasks  map[uint64]*protocol.TaskInfo
	nextID uint64 // the number of the next task; never goes back
	now    func() int64
	// dirty names the tasks changed or removed since the last flush, so
	// the store writes only those (store.go).
	dirty map[uint64]bool
	// order is every task's number, ascending (ids only grow).
	order []uint64
}

func newBoard(now func() int64) *board {
	return &board{tasks: map[uint64]*protocol.TaskInfo{}, nextID: 1, now: now, dirty: map[uint64]bool{}}
}

// touch marks t changed since the last save.
func (b *board) touch(t *protocol.TaskInfo) {
	if n, ok := protocol.TaskNumber(t.ID); ok {
		b.dirty[n] = true
	}
}

// change is what one operation did: the events to publish, in order.
type change struct {
	events []protocol.EventData
}

func (c *change) add(e protocol.EventData) { c.events = append(c.events, e) }

// get finds a task by id.
func (b *board) get(id string) (*protocol.TaskInfo, error) {
	n, ok := protocol.TaskNumber(id)
	if t := b.tasks[n]; ok && t != nil {
		return t, nil
	}
	return nil, protocol.Errorf(protocol.CodeTaskNotFound, "no task %s", id)
}

// create adds a task: ready unless asked for the backlog or a dependency
// is not done.
func (b *board) create(p *protocol.TaskCreateParams, source string) (*protocol.TaskInfo, change, error) {
	var c change
	deps := slices.Clone(p.DependsOn)
	if deps == nil {
		deps = []string{}
	}
	waiting := false
	for _, d := range deps {
		dep, err := b.get(d)
		if err != nil {
			return nil, c, protocol.Errorf(protocol.CodeTaskDependencyNotFound, "dependency %s does not exist", d)
		}
		if dep.Status != protocol.TaskDone {
			waiting = true
		}
	}
	// A new task cannot be anyone's dependency yet, so no cycle can form
	// here; task_dependency_cycle is kept for edits of dependencies.
	status := protocol.TaskReady
	if p.Backlog || waiting {
		status = protocol.TaskBacklog
	}
	now := b.now()
	id := b.nextID
	b.nextID++
	t := &protocol.TaskInfo{
		ID: protocol.TaskID(id), Title: p.Title, Description: p.Description, Cwd: p.Cwd,
		Priority: p.Priority, DependsOn: deps, Status: status, AgentSessionID: p.AgentSessionID,
		CreatedMS: now, UpdatedMS: now,
	}
	b.tasks[id] = t
	b.order = append(b.order, id)
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityCreated, Status: status, Source: source}, nil)
	c.add(protocol.TaskCreatedEvent{Task: withActivities(t)})
	return t, c, nil
}

// activity appends an activity (the newest MaxTaskActivities kept, and
// no more than MaxTaskActivityBytes of messages) and, when c is given,
// its event.
func (b *board) activity(t *protocol.TaskInfo, a protocol.TaskActivity, c *change) {
	b.touch(t)
	a.Seq = 1
	if n := len(t.Activities); n > 0 {
		a.Seq = t.Activities[n-1].Seq + 1
	}
	if a.AtMS == 0 {
		a.AtMS = b.now()
	}
	if len(t.Activities) >= protocol.MaxTaskActivities {
		// Drop the oldest in place; the slice never grows past the cap.
		copy(t.Activities, t.Activities[len(t.Activities)-protocol.MaxTaskActivities+1:])
		t.Activities = t.Activities[:protocol.MaxTaskActivities-1]
	}
	t.Activities = append(t.Activities, a)
	trimActivityBytes(t)
	if c != nil {
		c.add(protocol.TaskActivityEvent{TaskID: t.ID, Activity: a})
	}
}

// trimActivityBytes drops t's oldest activities while their messages
// pass MaxTaskActivityBytes; the newest is always kept.
func trimActivityBytes(t *protocol.TaskInfo) {
	total, keep := 0, 0
	for i := len(t.Activities) - 1; i >= 0; i-- {
		total += len(t.Activities[i].Message)
		if total > protocol.MaxTaskActivityBytes && keep > 0 {
			break
		}
		keep++
	}
	if drop := len(t.Activities) - keep; drop > 0 {
		n := copy(t.Activities, t.Activities[drop:])
		clear(t.Activities[n:])
		t.Activities = t.Activities[:n]
	}
}

// updated stamps a change of t and adds its task_updated.
func (b *board) updated(t *protocol.TaskInfo, previous string, c *change) {
	b.touch(t)
	t.UpdatedMS = b.now()
	c.add(protocol.TaskUpdatedEvent{Task: withoutActivities(t), PreviousStatus: previous})
}

// report moves a task to status (checked against the state machine), or,
// with the same status and a message, records progress. running→running
// is progress too.
func (b *board) report(id, status, message, source string) (*protocol.TaskInfo, change, error) {
	var c change
	t, err := b.get(id)
	if err != nil {
		return nil, c, err
	}
	from := t.Status
	if status == from && from != protocol.TaskRunning {
		if message == "" {
			return nil, c, protocol.TaskTransitionError(id, from, status)
		}
		t.LastMessage = message
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityMessage, Status: status, Message: message, Source: source}, &c)
		b.updated(t, from, &c)
		return t, c, nil
	}
	if !protocol.TaskTransitionAllowed(from, status) {
		return nil, c, protocol.TaskTransitionError(id, from, status)
	}
	if from == protocol.TaskBacklog && status == protocol.TaskReady {
		if pending := b.pendingDeps(t); len(pending) > 0 {
			return nil, c, protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s: backlog → ready refused: dependencies not done: %v", id, pending)
		}
	}
	kind := protocol.ActivityStatus
	if from == status {
		kind = protocol.ActivityMessage // running → running: progress
	}
	t.Status = status
	if message != "" {
		t.LastMessage = message
	}
	b.activity(t, protocol.TaskActivity{Kind: kind, From: from, Status: status, Message: message, Source: source}, &c)
	b.updated(t, from, &c)
	if status == protocol.TaskDone {
		b.release(&c)
	}
	return t, c, nil
}

// pendingDeps lists the dependencies of t not done (a dependency that is
// gone counts as not done).
func (b *board) pendingDeps(t *protocol.TaskInfo) []string {
	var out []string
	for _, d := range t.DependsOn {
		if dep, err := b.get(d); err != nil || dep.Status != protocol.TaskDone {
			out = append(out, d)
		}
	}
	return out
}

// release makes ready every backlog task with dependencies, all done.
// A task put in the backlog by hand (no dependencies) stays there.
func (b *board) release(c *change) {
	for _, t := range b.inOrder() {
		if t.Status != protocol.TaskBacklog || len(t.DependsOn) == 0 || len(b.pendingDeps(t)) > 0 {
			continue
		}
		t.Status = protocol.TaskReady
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityReleased, From: protocol.TaskBacklog, Status: protocol.TaskReady, Message: "dependencies done"}, c)
		b.updated(t, protocol.TaskBacklog, c)
	}
}

// attach records the agent a task is assigned to.
func (b *board) attach(t *protocol.TaskInfo, who protocol.TaskAssignee, source string, c *change) {
	t.Assignee = &who
	t.Attempts++
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityAssigned, Status: t.Status, Message: assigneeText(who), Source: source}, c)
}

// dispatch attaches a ready task and starts it.
func (b *board) dispatch(id string, who protocol.TaskAssignee, source string) (*protocol.TaskInfo, change, error) {
	var c change
	t, err := b.get(id)
	if err != nil {
		return nil, c, err
	}
	if t.Status != protocol.TaskReady {
		return nil, c, notReady(t)
	}
	b.attach(t, who, source, &c)
	t.Status = protocol.TaskRunning
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityDispatched, From: protocol.TaskReady, Status: protocol.TaskRunning, Message: assigneeText(who), Source: source}, &c)
	b.updated(t, protocol.TaskReady, &c)
	return t, c, nil
}

func notReady(t *protocol.TaskInfo) error {
	return protocol.Errorf(protocol.CodeTaskNotReady, "task %s is %s; only a ready task is dispatched", t.ID, t.Status)
}

// claim records the dispatcher's worker of a task, or releases it.
func (b *board) claim(p *protocol.TaskClaimParams, source string) (*protocol.TaskInfo, change, error) {
	var c change
	t, err := b.get(p.TaskID)
	if err != nil {
		return nil, c, err
	}
	if p.Release {
		if t.Worker == nil {
			return t, c, nil // nothing to release: the same answer twice
		}
		t.Worker = nil
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityUnclaimed, Status: t.Status, Message: p.Message, Source: source}, &c)
		b.updated(t, t.Status, &c)
		return t, c, nil
	}
	if t.Status == protocol.TaskDone || t.Status == protocol.TaskCancelled {
		return nil, c, protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s; a final task takes no worker", t.ID, t.Status)
	}
	w := *p.Worker
	w.ClaimedMS = b.now()
	t.Worker = &w
	msg := p.Message
	if msg == "" {
		msg = w.Branch
	}
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityClaimed, Status: t.Status, Message: msg, Source: source}, &c)
	b.updated(t, t.Status, &c)
	return t, c, nil
}

// agentStatus records the assignee's agent status on the tasks it runs.
func (b *board) agentStatus(paneID, status string) change {
	var c change
	for _, t := range b.inOrder() {
		if t.Assignee == nil || t.Assignee.PaneID != paneID {
			continue
		}
		switch t.Status {
		case protocol.TaskRunning, protocol.TaskBlocked, protocol.TaskReview:
		default:
			continue
		}
		b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityAgentStatus, Status: status, Message: "agent " + t.Assignee.Target + " is " + status, Source: "agent"}, &c)
	}
	return c
}

// paneMoved follows an assignee's pane to its new id (a pane moved to
// another tab or workspace is renumbered there); its terminal says it is
// the same pane.
func (b *board) paneMoved(from, to, terminal string) change {
	var c change
	for _, t := range b.inOrder() {
		a := t.Assignee
		if a == nil || a.PaneID != from || a.TerminalID != "" && a.TerminalID != terminal {
			continue
		}
		moved := *a
		if moved.Target == moved.PaneID {
			moved.Target = to // named by its pane: the name goes with it
		}
		moved.PaneID = to
		t.Assignee = &moved
		b.updated(t, t.Status, &c)
	}
	return c
}

// inOrder lists every task by id number.
func (b *board) inOrder() []*protocol.TaskInfo {
	out := make([]*protocol.TaskInfo, 0, len(b.order))
	for _, n := range b.order {
		out = append(out, b.tasks[n])
	}
	return out
}

// sorted lists the tasks of the statuses f wants (nil: all) by priority,
// then id number.
func (b *board) sorted(f *protocol.TaskListParams) []*protocol.TaskInfo {
	out := make([]*protocol.TaskInfo, 0, len(b.tasks))
	for _, t := range b.tasks {
		if f == nil || f.Wants(t.Status) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Priority != out[j].Priority {
			return out[i].Priority < out[j].Priority
		}
		a, _ := protocol.TaskNumber(out[i].ID)
		c, _ := protocol.TaskNumber(out[j].ID)
		return a < c
	})
	return out
}

func assigneeText(a protocol.TaskAssignee) string {
	if a.PaneID != "" && a.PaneID != a.Target {
		return a.Target + " (" + a.PaneID + ")"
	}
	return a.Target
}

// withActivities is a copy of t that shares nothing with it.
func withActivities(t *protocol.TaskInfo) protocol.TaskInfo {
	c := withoutActivities(t)
	c.Activities = slices.Clone(t.Activities)
	return c
}

// withoutActivities is a copy of t without its activities, sharing nothing.
func withoutActivities(t *protocol.TaskInfo) protocol.TaskInfo {
	c := *t
	c.Activities = nil
	c.DependsOn = slices.Clone(t.DependsOn)
	if c.DependsOn == nil {
		c.DependsOn = []string{}
	}
	if t.Assignee != nil {
		a := *t.Assignee
		c.Assignee = &a
	}
	if t.Worker != nil {
		w := *t.Worker
		c.Worker = &w
	}
	return c
}

// flush hands the store what changed since the last flush: a copy of
// each changed task (sharing nothing with the board: the store encodes
// it on its own goroutine) and the numbers of the tasks removed.
func (b *board) flush() (changed []protocol.TaskInfo, removed []uint64) {
	for n := range b.dirty {
		if t := b.tasks[n]; t != nil {
			changed = append(changed, withActivities(t))
		} else {
			removed = append(removed, n)
		}
	}
	clear(b.dirty)
	return changed, removed
}

// snapshot is the whole board as plain data (a live handoff carries it;
// the store writes one only when migrating a session.json's board).
func (b *board) snapshot() *model.SavedTasks {
	s := &model.SavedTasks{NextID: b.nextID, Tasks: make([]protocol.TaskInfo, 0, len(b.order))}
	for _, n := range b.order {
		s.Tasks = append(s.Tasks, withActivities(b.tasks[n]))
	}
	return s
}

// restore loads a saved board; entries that are not tasks are skipped,
// and the next id is past every kept one. Nothing is dirty after it: the
// board is what was read.
func (b *board) restore(s *model.SavedTasks) {
	b.nextID = max(s.NextID, 1)
	for _, t := range s.Tasks {
		n, ok := protocol.TaskNumber(t.ID)
		if !ok || !protocol.ValidTaskStatus(t.Status) || b.tasks[n] != nil {
			continue
		}
		c := withActivities(&t)
		c.ActivityCount = 0
		if len(c.Activities) > protocol.MaxTaskActivities {
			c.Activities = c.Activities[len(c.Activities)-protocol.MaxTaskActivities:]
		}
		trimActivityBytes(&c)
		b.tasks[n] = &c
		b.order = append(b.order, n)
		b.nextID = max(b.nextID, n+1)
	}
	slices.Sort(b.order)
}
