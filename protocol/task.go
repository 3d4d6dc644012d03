package protocol

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// The task board (issue 32; Herdr's next protocol, an extension here):
// durable tasks, independent of panes, owned by the tasks actor. The
// state machine (TaskTransitionAllowed) is here so the dispatcher and the
// clients check what the tasks actor enforces.

var taskMethods = []Method{
	{Name: "task.create", Extension: true, Params: func() Params { return &TaskCreateParams{} }, Result: "task_info", Summary: "Create a task on the board (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.list", Extension: true, Pipeline: true, Params: func() Params { return &TaskListParams{} }, Result: "task_list", Summary: "List tasks by priority, optionally of some statuses, a page at a time (extension)", Owner: OwnerTasks, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "task.get", Extension: true, Pipeline: true, Params: func() Params { return &TaskGetParams{} }, Result: "task_info", Summary: "Describe one task with its newest activities (extension)", Owner: OwnerTasks, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "task.attach", Extension: true, CLI: "task attach", CLIHelp: "; the target is an agent's name or its pane id, as agent commands take.", CLIExample: "  herdr task attach task-3 reviewer", Params: func() Params { return &TaskAttachParams{} }, Result: "task_info", Summary: "Assign a live agent to a task (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.dispatch", Extension: true, CLI: "task dispatch <task> <target> [--prompt P]", CLIHelp: `: the task must be ready; it becomes running, and the
agent gets the task's title, description and how to report (or --prompt).`, CLIExample: "  herdr task dispatch task-3 w1:p2", Params: func() Params { return &TaskDispatchParams{} }, Result: "task_info", Summary: "Assign a ready task to a live agent and send it as its next prompt (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.report", Extension: true, Params: func() Params { return &TaskReportParams{} }, Result: "task_info", Summary: "Report a task's status or progress message (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.claim", Extension: true, Params: func() Params { return &TaskClaimParams{} }, Result: "task_info", Summary: "Record or release the dispatcher's worker of a task (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.remove", Extension: true, CLI: "task remove", CLIHelp: `; a task not done or cancelled is refused
(invalid_task_transition: cancel it first), as is one a backlog task depends
on. Finished tasks also go by themselves: [tasks] keep_done and keep_done_days.`, CLIExample: "  herdr task remove task-3", Params: func() Params { return &TaskIDParams{} }, Result: "ok", Summary: "Remove a done or cancelled task from the board (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
	{Name: "task.run", Extension: true, CLI: "task run [--max-running N]", CLIHelp: `: it takes ready tasks that have a folder (--cwd;
task create refuses one without while it runs), each on a worker of its own:
a worktree off the task's folder and the [tasks] agent command in its pane.
A worker that cannot start (no worktree, the agent command not found, an
agent not recognised within [tasks] agent_start_timeout) is given up, its
reason in the task's activity; the task is retried after [tasks]
retry_delay, doubled each time, and fails after [tasks] max_attempts.`, Params: func() Params { return &TaskRunParams{} }, Result: "ok", Summary: "Turn the task dispatcher on for this server's life (extension)", Owner: OwnerTasks, Shape: ShapeAnswer},
}

// TaskEventKinds are the task board's lifecycle kinds, which LifecycleKinds
// ends with: subscribable and hooked here, unknown to Herdr 0.9's servers.
var TaskEventKinds = []string{"task_created", "task_updated", "task_activity", "task_removed"}

// HerdrEventKind reports whether a lifecycle kind is one a Herdr 0.9
// server knows, so a subscription to another machine's server, which may
// be Herdr's, asks for no other.
func HerdrEventKind(kind string) bool {
	for _, k := range LoopEventKinds {
		if k == kind {
			return false
		}
	}
	for _, k := range TaskEventKinds {
		if k == kind {
			return false
		}
	}
	return true
}

// Task error codes.
const (
	CodeTaskNotFound           = "task_not_found"
	CodeInvalidTaskTransition  = "invalid_task_transition"
	CodeTaskDependencyNotFound = "task_dependency_not_found"
	CodeTaskDependencyCycle    = "task_dependency_cycle"
	CodeTaskNotReady           = "task_not_ready"
	// CodeFleetUnavailable: a fleet task was asked of a server that is
	// in no fleet ([fleet] in config.toml) or not connected to its hub.
	CodeFleetUnavailable = "fleet_unavailable"
)

// Task statuses.
const (
	TaskBacklog   = "backlog"
	TaskReady     = "ready"
	TaskRunning   = "running"
	TaskReview    = "review"
	TaskDone      = "done"
	TaskBlocked   = "blocked"
	TaskFailed    = "failed"
	TaskCancelled = "cancelled"
)

// TaskStatuses lists every status in the board's column order.
var TaskStatuses = []string{TaskBacklog, TaskReady, TaskRunning, TaskBlocked, TaskReview, TaskDone, TaskFailed, TaskCancelled}

// Activity kinds.
const (
	ActivityCreated     = "created"
	ActivityStatus      = "status"
	ActivityMessage     = "message"
	ActivityAssigned    = "assigned"
	ActivityDispatched  = "dispatched"
	ActivityReleased    = "released"
	ActivityAgentStatus = "agent_status"
	ActivityClaimed     = "claimed"
	ActivityUnclaimed   = "unclaimed"
)

// Task limits.
const (
	MaxTaskTitle       = 200
	MaxTaskDescription = 16 << 10
	MaxTaskMessage     = 16 << 10
	// MaxTaskActivities is how many activities a task keeps (the newest).
	MaxTaskActivities = 256
	// MaxTaskActivityBytes bounds the messages of the activities a task
	// keeps (the newest kept, at least one): with MaxTaskMessage, a task
	// on disk or in an answer stays a few hundred KB however it is used.
	MaxTaskActivityBytes = 256 << 10
	// DefaultTaskActivities is how many of its newest activities task.get
	// answers with when not asked for a number (activity_limit).
	DefaultTaskActivities = 50
	// MaxTaskListLimit is the most tasks one page of task.list holds;
	// next_offset says where the next page starts.
	MaxTaskListLimit = 1000
)

// taskTransitions are the allowed moves; done and cancelled are final.
// running→done is refused: review is the gate. ready→failed is the
// dispatcher's when no worker of a task could start.
var taskTransitions = map[string][]string{
	TaskBacklog: {TaskReady, TaskCancelled},
	TaskReady:   {TaskRunning, TaskBacklog, TaskFailed, TaskCancelled},
	TaskRunning: {TaskRunning, TaskBlocked, TaskReview, TaskFailed, TaskCancelled},
	TaskBlocked: {TaskRunning, TaskFailed, TaskCancelled},
	TaskReview:  {TaskDone, TaskRunning, TaskFailed, TaskCancelled},
	TaskFailed:  {TaskReady, TaskCancelled},
}

// TaskNextStatuses lists where a task in status from may go.
func TaskNextStatuses(from string) []string { return taskTransitions[from] }

// TaskTransitionAllowed reports whether from→to is a move of the state
// machine (backlog→ready also needs every dependency done, which the
// tasks actor checks).
func TaskTransitionAllowed(from, to string) bool {
	for _, s := range taskTransitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// TaskTransitionError is the invalid_task_transition of from→to.
func TaskTransitionError(id, from, to string) *Error {
	next := taskTransitions[from]
	if len(next) == 0 {
		return Errorf(CodeInvalidTaskTransition, "task %s: %s → %s refused: %s is final", id, from, to, from)
	}
	return Errorf(CodeInvalidTaskTransition, "task %s: %s → %s refused; from %s: %s", id, from, to, from, strings.Join(next, ", "))
}

// ValidTaskStatus reports whether s is a status.
func ValidTaskStatus(s string) bool {
	for _, v := range TaskStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// TaskNumber is the number of a "task-N" id; ok is false for anything else.
func TaskNumber(id string) (n uint64, ok bool) {
	rest, found := strings.CutPrefix(id, "task-")
	if !found || rest == "" || rest[0] == '0' || len(rest) > 19 {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 10, 64)
	return n, err == nil
}

// TaskID spells task number n.
func TaskID(n uint64) string { return "task-" + strconv.FormatUint(n, 10) }

// TaskAssignee is the live agent a task is attached to.
type TaskAssignee struct {
	Target     string `json:"target"`
	PaneID     string `json:"pane_id,omitempty"`
	TerminalID string `json:"terminal_id,omitempty"`
}

// TaskWorker is the dispatcher's durable record of the worker it made
// for a task (task.claim).
type TaskWorker struct {
	WorkspaceID string `json:"workspace_id,omitempty"`
	PaneID      string `json:"pane_id,omitempty"`
	Branch      string `json:"branch,omitempty"`
	Path        string `json:"path,omitempty"`
	ClaimedMS   int64  `json:"claimed_ms"`
	// Machine is the fleet member running a fleet task.
	Machine string `json:"machine,omitempty"`
}

// TaskActivity is one entry of a task's history.
type TaskActivity struct {
	Seq     uint64 `json:"seq"`
	AtMS    int64  `json:"at_ms"`
	Kind    string `json:"kind"`
	From    string `json:"from,omitempty"`
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	Source  string `json:"source,omitempty"`
}

// TaskInfo is a task on the wire. Activities are given by task.get (the
// newest, a page of them), task.report (the ones it added) and
// task_created only; ActivityCount, in answers, is how many the task keeps.
type TaskInfo struct {
	ID             string         `json:"id"`
	Title          string         `json:"title"`
	Description    string         `json:"description,omitempty"`
	Cwd            string         `json:"cwd,omitempty"`
	Priority       int64          `json:"priority"`
	DependsOn      []string       `json:"depends_on"`
	Status         string         `json:"status"`
	AgentSessionID string         `json:"agent_session_id,omitempty"`
	Assignee       *TaskAssignee  `json:"assignee,omitempty"`
	Attempts       int            `json:"attempts"`
	Worker         *TaskWorker    `json:"worker,omitempty"`
	LastMessage    string         `json:"last_message,omitempty"`
	CreatedMS      int64          `json:"created_ms"`
	UpdatedMS      int64          `json:"updated_ms"`
	Activities     []TaskActivity `json:"activities,omitempty"`
	ActivityCount  int            `json:"activity_count,omitempty"`
	// Fleet marks a task of the fleet's board; Requires are the member
	// labels it needs.
	Fleet    bool     `json:"fleet,omitempty"`
	Requires []string `json:"requires,omitempty"`
}

// TaskInfoResult answers task.create, get, attach, dispatch, report, claim.
type TaskInfoResult struct {
	Task TaskInfo `json:"task"`
}

// ResultType implements Result.
func (TaskInfoResult) ResultType() string { return "task_info" }

// TaskList answers task.list: a page of the tasks asked for. Total is how
// many there are of those statuses; NextOffset, when more follow, is the
// offset of the next page.
type TaskList struct {
	Tasks      []TaskInfo `json:"tasks"`
	Total      int        `json:"total"`
	NextOffset int        `json:"next_offset,omitempty"`
}

// ResultType implements Result.
func (TaskList) ResultType() string { return "task_list" }

// TaskCreatedEvent: a task was created (with its activities).
type TaskCreatedEvent struct {
	Task TaskInfo `json:"task"`
}

// EventKind implements EventData.
func (TaskCreatedEvent) EventKind() string { return "task_created" }

// TaskUpdatedEvent: a field or the status of a task changed (without
// its activities).
type TaskUpdatedEvent struct {
	Task           TaskInfo `json:"task"`
	PreviousStatus string   `json:"previous_status"`
}

// EventKind implements EventData.
func (TaskUpdatedEvent) EventKind() string { return "task_updated" }

// TaskActivityEvent: an activity was added to a task.
type TaskActivityEvent struct {
	TaskID   string       `json:"task_id"`
	Activity TaskActivity `json:"activity"`
}

// EventKind implements EventData.
func (TaskActivityEvent) EventKind() string { return "task_activity" }

// TaskRemovedEvent: a done or cancelled task left the board (task.remove,
// or the retention of [tasks] keep_done and keep_done_days).
type TaskRemovedEvent struct {
	TaskID string `json:"task_id"`
	Status string `json:"status"`
	// Reason is "removed" (task.remove) or "retention".
	Reason string `json:"reason"`
}

// EventKind implements EventData.
func (TaskRemovedEvent) EventKind() string { return "task_removed" }

// TaskCreateParams are task.create's.
type TaskCreateParams struct {
	Title          string   `json:"title"`
	Description    string   `json:"description,omitempty"`
	Cwd            string   `json:"cwd,omitempty"`
	Priority       int64    `json:"priority,omitempty"`
	DependsOn      []string `json:"depends_on,omitempty"`
	AgentSessionID string   `json:"agent_session_id,omitempty"`
	Backlog        bool     `json:"backlog,omitempty"`
	// Fleet puts the task on the fleet's board (issue 48), for any
	// member whose labels hold every one of Requires to run.
	Fleet    bool     `json:"fleet,omitempty"`
	Requires []string `json:"requires,omitempty"`
}

// Validate implements Params.
func (p *TaskCreateParams) Validate() error {
	if err := taskText("title", p.Title, MaxTaskTitle, true); err != nil {
		return err
	}
	if len(p.Description) > MaxTaskDescription {
		return ParamError("description", "longer than %d bytes", MaxTaskDescription)
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return ParamError("cwd", "must be an absolute path, got %q", p.Cwd)
	}
	if err := taskText("agent_session_id", p.AgentSessionID, 512, false); err != nil {
		return err
	}
	seen := map[string]bool{}
	if len(p.Requires) > 0 && !p.Fleet {
		return ParamError("requires", "only a fleet task requires labels (add fleet: true, herdr task create --fleet)")
	}
	if p.Fleet && (len(p.DependsOn) > 0 || p.AgentSessionID != "") {
		return ParamError("fleet", "a fleet task takes no depends_on or agent_session_id (its member's dispatcher runs it)")
	}
	for i, r := range p.Requires {
		if err := taskText(fmt.Sprintf("requires[%d]", i), r, 128, true); err != nil {
			return err
		}
	}
	for i, d := range p.DependsOn {
		if _, ok := TaskNumber(d); !ok {
			return ParamError(fmt.Sprintf("depends_on[%d]", i), "expected a task id (task-N), got %q", d)
		}
		if seen[d] {
			return ParamError(fmt.Sprintf("depends_on[%d]", i), "%s listed twice", d)
		}
		seen[d] = true
	}
	return nil
}

// taskText checks a one-line field: at most max bytes, printable.
func taskText(field, v string, max int, req bool) error {
	if req && strings.TrimSpace(v) == "" {
		return ParamError(field, "missing required field")
	}
	if len(v) > max {
		return ParamError(field, "longer than %d bytes", max)
	}
	if !isPrintable(v) {
		return ParamError(field, "holds control characters or invalid UTF-8")
	}
	return nil
}

// TaskStatusFilter is task.list's status: one status or a list of them.
type TaskStatusFilter []string

// UnmarshalJSON accepts a string or an array of strings.
func (f *TaskStatusFilter) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := Unmarshal(b, &s); err != nil {
			return err
		}
		*f = TaskStatusFilter{s}
		return nil
	}
	var list []string
	if err := Unmarshal(b, &list); err != nil {
		return ParamError("status", "expected a status or a list of them")
	}
	*f = list
	return nil
}

// TaskListParams are task.list's: Limit tasks (1 to MaxTaskListLimit)
// from Offset in the listing's order. Without a limit every task from
// Offset is listed, as Herdr's task.list does (the board's done and
// cancelled tasks are bounded by retention).
type TaskListParams struct {
	Status TaskStatusFilter `json:"status,omitempty"`
	Limit  int              `json:"limit,omitempty"`
	Offset int              `json:"offset,omitempty"`
	// Fleet lists the fleet's board instead of this server's.
	Fleet bool `json:"fleet,omitempty"`
}

// Validate implements Params.
func (p *TaskListParams) Validate() error {
	for _, s := range p.Status {
		if !ValidTaskStatus(s) {
			return ParamError("status", "expected one of %v, got %q", TaskStatuses, s)
		}
	}
	if p.Limit < 0 || p.Limit > MaxTaskListLimit {
		return ParamError("limit", "expected 1 to %d, got %d", MaxTaskListLimit, p.Limit)
	}
	if p.Offset < 0 {
		return ParamError("offset", "expected 0 or more, got %d", p.Offset)
	}
	return nil
}

// Wants reports whether a task of status s is listed.
func (p *TaskListParams) Wants(s string) bool {
	if len(p.Status) == 0 {
		return true
	}
	for _, v := range p.Status {
		if v == s {
			return true
		}
	}
	return false
}

// TaskIDParams name one task (task.remove).
type TaskIDParams struct {
	TaskID string `json:"task_id" cli:"<task>"`
}

// Validate implements Params.
func (p *TaskIDParams) Validate() error { return validTaskID(p.TaskID) }

// TaskGetParams are task.get's: the task, and which of its activities:
// the newest ActivityLimit (1 to MaxTaskActivities, 0 for
// DefaultTaskActivities) of those before seq ActivitiesBefore (0: all),
// so a client pages back through the history.
type TaskGetParams struct {
	TaskID           string `json:"task_id"`
	ActivityLimit    int    `json:"activity_limit,omitempty"`
	ActivitiesBefore uint64 `json:"activities_before,omitempty"`
	// Fleet reads the task from the fleet's board.
	Fleet bool `json:"fleet,omitempty"`
}

// Validate implements Params.
func (p *TaskGetParams) Validate() error {
	if err := validTaskID(p.TaskID); err != nil {
		return err
	}
	if p.ActivityLimit < 0 || p.ActivityLimit > MaxTaskActivities {
		return ParamError("activity_limit", "expected 1 to %d, got %d", MaxTaskActivities, p.ActivityLimit)
	}
	return nil
}

func validTaskID(id string) error {
	if id == "" {
		return ParamError("task_id", "missing required field")
	}
	if _, ok := TaskNumber(id); !ok {
		return ParamError("task_id", "expected a task id (task-N), got %q", id)
	}
	return nil
}

// TaskAttachParams are task.attach's: target is an agent's name or its
// pane id, as agent.*'s.
type TaskAttachParams struct {
	TaskID string `json:"task_id" cli:"<task>"`
	Target string `json:"target" cli:"<target>"`
}

// Validate implements Params.
func (p *TaskAttachParams) Validate() error {
	if err := validTaskID(p.TaskID); err != nil {
		return err
	}
	return taskText("target", p.Target, 256, true)
}

// TaskDispatchParams are task.dispatch's; Prompt replaces the prompt made
// from the task.
type TaskDispatchParams struct {
	TaskID string `json:"task_id" cli:"<task>"`
	Target string `json:"target" cli:"<target>"`
	Prompt string `json:"prompt,omitempty" cli:"--prompt" help:"send this instead of the prompt made from the task"`
}

// Validate implements Params.
func (p *TaskDispatchParams) Validate() error {
	if err := validTaskID(p.TaskID); err != nil {
		return err
	}
	if err := taskText("target", p.Target, 256, true); err != nil {
		return err
	}
	if len(p.Prompt) > MaxTaskDescription {
		return ParamError("prompt", "longer than %d bytes", MaxTaskDescription)
	}
	return nil
}

// TaskReportParams are task.report's.
type TaskReportParams struct {
	TaskID  string `json:"task_id"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// Source names who reports (cli, dispatcher, …); "" is the API.
	Source string `json:"source,omitempty"`
}

// Validate implements Params.
func (p *TaskReportParams) Validate() error {
	if err := validTaskID(p.TaskID); err != nil {
		return err
	}
	if err := required("status", p.Status); err != nil {
		return err
	}
	if !ValidTaskStatus(p.Status) {
		return ParamError("status", "expected one of %v, got %q", TaskStatuses, p.Status)
	}
	if len(p.Message) > MaxTaskMessage {
		return ParamError("message", "longer than %d bytes", MaxTaskMessage)
	}
	return taskText("source", p.Source, 64, false)
}

// TaskClaimParams are task.claim's: the dispatcher's durable record of a
// worker (Worker), or its removal (Release).
type TaskClaimParams struct {
	TaskID  string      `json:"task_id"`
	Worker  *TaskWorker `json:"worker,omitempty"`
	Release bool        `json:"release,omitempty"`
	Message string      `json:"message,omitempty"`
}

// Validate implements Params.
func (p *TaskClaimParams) Validate() error {
	if err := validTaskID(p.TaskID); err != nil {
		return err
	}
	if (p.Worker == nil) == !p.Release {
		return ParamError("worker", "give exactly one of worker and release:true")
	}
	if p.Worker != nil && p.Worker.Path != "" && !filepath.IsAbs(p.Worker.Path) {
		return ParamError("worker.path", "must be an absolute path, got %q", p.Worker.Path)
	}
	if len(p.Message) > MaxTaskMessage {
		return ParamError("message", "longer than %d bytes", MaxTaskMessage)
	}
	return nil
}

// TaskRunParams are task.run's.
type TaskRunParams struct {
	MaxRunning *int `json:"max_running,omitempty" cli:"--max-running" help:"at most this many workers at once (default: [tasks] max_running)"`
}

// Validate implements Params.
func (p *TaskRunParams) Validate() error {
	if p.MaxRunning != nil && (*p.MaxRunning < 1 || *p.MaxRunning > 64) {
		return ParamError("max_running", "expected 1 to 64, got %d", *p.MaxRunning)
	}
	return nil
}
