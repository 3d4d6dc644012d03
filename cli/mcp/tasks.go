package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// The task board's tools: a coordinator agent creates, lists, dispatches
// and reports tasks with them; a worker reports its progress. They are the
// task.* methods, typed.

var taskStatuses = func() []any {
	out := make([]any, len(protocol.TaskStatuses))
	for i, s := range protocol.TaskStatuses {
		out[i] = s
	}
	return out
}()

func (h *herdr) taskTools() []tool {
	return []tool{
		define("task_create", "Create a task on the board: a title, a description with the outcome and how to check it, a working folder, a priority (lower first) and the tasks it depends on. It is ready at once, or in backlog until its dependencies are done.",
			acting, schemaHints{}, h.taskCreate),
		define("task_list", "List the board's tasks (of some statuses), sorted by priority: id (task-3), title, status, assignee, attempts, last message; a page at a time (limit, default 100; next_offset and total say what is left).",
			readOnly, schemaHints{enum: map[string][]any{"status": taskStatuses}}, h.taskList),
		define("task_get", "Read one task: its description, dependencies, assignee and its newest activities (status changes, messages, agent status), oldest first; activity_count is how many it keeps, activities_before pages back.",
			readOnly, schemaHints{}, h.taskGet),
		define("task_dispatch", "Give a ready task to a live agent (its name or pane id): the task becomes running and the agent gets it as its next prompt (or prompt).",
			acting, schemaHints{}, h.taskDispatch),
		define("task_report", "Report a task's progress: a status (running for a milestone, blocked with what is needed, review when done and checked; done only from review) and a short message.",
			acting, schemaHints{enum: map[string][]any{"status": taskStatuses}}, h.taskReport),
		closes(define("task_remove", "Remove a done or cancelled task from the board (a task still open is refused: cancel it first).",
			closing, schemaHints{}, h.taskRemove)),
	}
}

type taskCreateIn struct {
	Title       string   `json:"title" jsonschema:"one line naming the outcome"`
	Description string   `json:"description,omitempty" jsonschema:"the outcome, constraints and the check that proves it"`
	Cwd         string   `json:"cwd,omitempty" jsonschema:"the absolute folder the work happens in"`
	Priority    int64    `json:"priority,omitempty" jsonschema:"lower runs first"`
	DependsOn   []string `json:"depends_on,omitempty" jsonschema:"tasks (task-1) that must be done first"`
}

func (h *herdr) taskCreate(ctx context.Context, _ *sdk.CallToolRequest, in taskCreateIn) (protocol.TaskInfoResult, error) {
	var r protocol.TaskInfoResult
	return r, h.call(ctx, "task.create", protocol.TaskCreateParams{Title: in.Title, Description: in.Description, Cwd: in.Cwd, Priority: in.Priority, DependsOn: in.DependsOn}, &r)
}

type taskListIn struct {
	Status []string `json:"status,omitempty" jsonschema:"only tasks of these statuses"`
	Limit  int      `json:"limit,omitempty" jsonschema:"at most this many tasks (default 100, at most 1000)"`
	Offset int      `json:"offset,omitempty" jsonschema:"skip this many first (the last answer's next_offset)"`
}

// defaultToolTasks is task_list's page when the agent names none: its
// answer lands in the agent's context.
const defaultToolTasks = 100

func (h *herdr) taskList(ctx context.Context, _ *sdk.CallToolRequest, in taskListIn) (protocol.TaskList, error) {
	var r protocol.TaskList
	if in.Limit == 0 {
		in.Limit = defaultToolTasks
	}
	return r, h.call(ctx, "task.list", protocol.TaskListParams{Status: in.Status, Limit: in.Limit, Offset: in.Offset}, &r)
}

type taskIn struct {
	TaskID string `json:"task_id" jsonschema:"the task (task-3)"`
}

type taskGetIn struct {
	TaskID           string `json:"task_id" jsonschema:"the task (task-3)"`
	ActivityLimit    int    `json:"activity_limit,omitempty" jsonschema:"this many of its newest activities (default 50, at most 256)"`
	ActivitiesBefore uint64 `json:"activities_before,omitempty" jsonschema:"only activities older than this seq, to page back"`
}

func (h *herdr) taskGet(ctx context.Context, _ *sdk.CallToolRequest, in taskGetIn) (protocol.TaskInfoResult, error) {
	var r protocol.TaskInfoResult
	return r, h.call(ctx, "task.get", protocol.TaskGetParams{TaskID: in.TaskID, ActivityLimit: in.ActivityLimit, ActivitiesBefore: in.ActivitiesBefore}, &r)
}

func (h *herdr) taskRemove(ctx context.Context, _ *sdk.CallToolRequest, in taskIn) (done, error) {
	return done{true}, h.call(ctx, "task.remove", protocol.TaskIDParams{TaskID: in.TaskID}, nil)
}

type taskDispatchIn struct {
	TaskID string `json:"task_id" jsonschema:"the ready task (task-3)"`
	Target string `json:"target" jsonschema:"the agent: its name (reviewer) or pane id (w1:p2)"`
	Prompt string `json:"prompt,omitempty" jsonschema:"the prompt to send instead of the task's title and description"`
}

func (h *herdr) taskDispatch(ctx context.Context, _ *sdk.CallToolRequest, in taskDispatchIn) (protocol.TaskInfoResult, error) {
	var r protocol.TaskInfoResult
	return r, h.call(ctx, "task.dispatch", protocol.TaskDispatchParams{TaskID: in.TaskID, Target: in.Target, Prompt: in.Prompt}, &r)
}

type taskReportIn struct {
	TaskID  string `json:"task_id" jsonschema:"the task (task-3)"`
	Status  string `json:"status" jsonschema:"the task's status after this report"`
	Message string `json:"message,omitempty" jsonschema:"what was done, what is needed, or the evidence"`
}

func (h *herdr) taskReport(ctx context.Context, _ *sdk.CallToolRequest, in taskReportIn) (protocol.TaskInfoResult, error) {
	var r protocol.TaskInfoResult
	return r, h.call(ctx, "task.report", protocol.TaskReportParams{TaskID: in.TaskID, Status: in.Status, Message: in.Message, Source: "mcp"}, &r)
}
