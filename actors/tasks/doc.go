// Package tasks is the tasks actor: the task board's only owner (issue
// 32). A task is durable and independent of panes; its states and the
// moves between them are protocol's (TaskTransitionAllowed), enforced
// here with their error codes; reaching done releases the backlog tasks
// whose dependencies are all done. Every change is kept (the tasks it
// changed go to the store, store.go: one file per task in tasks/ beside
// session.json, never the board whole), then published (task_created,
// task_updated, task_activity, task_removed), then answered; a
// task.claim, the dispatcher's record before it prompts a worker, is
// answered only once the store reports the version holding it on disk,
// and a task.dispatch sends its prompt only once its running task is
// there. Answers are bounded: a report answers with the activities it
// added, task.get with a page of the newest, task.list with a page of
// tasks. Done and cancelled tasks leave by task.remove or retention
// (retention.go: [tasks] keep_done, keep_done_days, applied after each
// finish and hourly), never one a backlog task depends on.
//
// task.attach and task.dispatch resolve their agent through the session
// (agent.get, then agent.prompt for a dispatch) from a short-lived child
// (asker.go), so other task calls flow while they wait; a task with one
// in flight refuses a second. The assignees' agent status changes are
// read from the bus and noted as agent_status activities. task.run tells
// the dispatcher (actors/dispatcher, named by SetDispatcher) to run; while
// it runs (Dispatching) task.create refuses a task without a cwd. A
// dispatch's prompt names the task's worker's worktree when it has one.
//
// task.create, task.list and task.get with fleet: true are the fleet's
// board, not this one: they go, with their caller, to the fleet actor
// (named by SetFleet when this server is a member), and are refused
// fleet_unavailable when it is in no fleet.
//
// board.go is the state machine as plain data, tested without actors.
package tasks
