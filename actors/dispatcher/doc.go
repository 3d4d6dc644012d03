// Package dispatcher is the task board's dispatcher (issue 32, beyond
// Herdr): an opt-in actor that runs ready tasks on workers of its own.
// It is off unless `[tasks] dispatcher = true` or `task.run` turns it on,
// and it drives the server only through the public API — each call is
// one a coordinator client could send (call.go), decoded and validated by
// the method table — so neither the session nor the tasks actor knows it
// exists beyond task.run.
//
// Picking (pick.go): ready tasks with a cwd, by priority (lower first)
// then id number, while fewer than max_running workers exist (default 2;
// task.run's max_running replaces it). The board keeps a task whose
// dependencies are not done out of ready, so ready is the whole
// dependency rule. A task has at most one worker: a worker is keyed by
// its task from its claim until the task leaves it.
//
// A worker, one call at a time (worker.go):
//  1. task.claim {branch} — the durable record, before anything exists;
//  2. a retry closes the previous attempt's workspace (its branch stays);
//  3. worktree.create off the task's cwd, branch
//     `<branch_prefix><id>-<slug of title>`; if git refuses (the branch
//     has a worktree already) worktree.open of that branch;
//  4. task.claim {workspace_id, pane_id, branch, path} — the record now
//     names the pane;
//  5. the agent in the workspace's root pane: pane.process_info names
//     the shell running there (the leader of the job in front, whatever
//     the pane was started with or has exec'd since), then
//     pane.send_input of `export HERDR_TASK_ID=<id>; <[tasks] agent>`
//     with {id} and {title} replaced, each quoted for that shell's
//     dialect (template.go: POSIX, fish — `set -gx` — and PowerShell; a
//     shell whose quoting is not known takes only words that need none,
//     else the worker is given up saying why);
//  6. once the pane's agent is recognised (pane_agent_detected, or
//     agent.get), agent.wait until idle, agent.rename to the task's id,
//     then task.dispatch to it (its prompt names the worktree).
//
// A step that fails gives the worker up (worker.go giveUp), and so does
// an agent not recognised within AgentStart ([tasks]
// agent_start_timeout): the reason, with the pane's last lines once the
// agent was typed, goes in a warn log line and in the claim's release
// ("given up (attempt N of M): …", the task's unclaimed activity), and
// the workspace is closed (branch and worktree stay). The task is held
// back for RetryDelay, doubled per attempt, then picked again; the
// MaxAttempts-th given-up worker moves it to failed (ready → failed) with
// the reason. Attempts are counted from the history the claim answers
// with (given-up releases since the last status change), so the count
// survives a restart and a person's retry starts it again. A refused
// claim is no attempt: the task is held until its status changes.
//
// A ready task without a cwd is never picked; its history says why, once.
// The dispatcher tells the tasks actor when it runs (tasks.Dispatching),
// which then refuses task.create without a cwd. A reload's [tasks]
// arrives as Reconfigure: bounds and template apply to the next workers,
// and a changed dispatcher key turns it on or off (workers go on).
//
// Watching (watch.go, bus events): the worker's agent going blocked while
// the task runs → task.report blocked with the last lines of the visible
// screen (its question); working again while blocked → task.report
// running; the task leaving running and blocked (review, done, failed,
// cancelled) ends the worker and leaves its worktree and workspace, for
// review. A dead worker — its agent leaving the pane, or the pane
// exiting, while dispatched — goes back through the give-up machinery
// (worker.go dead): task.report failed with why and the pane's last
// lines, the claim released as an attempt ("given up (attempt N of M):
// …"), the workspace closed (branch and worktree stay), task.report
// ready, and picked again after the backoff; the MaxAttempts-th leaves it
// failed ("the dispatcher gave up after N attempts: …"). The dispatcher's
// own reports carry source "dispatcher", so its failed → ready does not
// reset the count; a person's does. The worker keeps its slot until
// that is done, so the release cannot land on a new claim. A task that
// comes back to ready (failed → ready, a retry) is picked again.
//
// Restart and handoff (recover.go): the rule, applied once as the
// dispatcher first runs, to every ready, running or blocked task that
// carries a worker claim:
//   - the claim names a pane that exists, in the workspace it names: a
//     ready task (the server stopped between the record and the prompt)
//     gets its agent started in that pane and is dispatched there, once;
//     a running or blocked task is adopted — watched as it is, never
//     dispatched again — once agent.get, or a pane_agent_detected within
//     AgentStart, shows its agent running there (the agents actor
//     resumes one that reported its session); otherwise its worker is
//     dead (above): back to ready as an attempt, its slot freed;
//   - otherwise the worker has vanished: a ready task's claim is
//     released; a running or blocked one's worker is dead (above), its
//     workspace left (the claim's id may name another one now).
//
// A live handoff carries the tasks (claims included) and the panes, so
// the new server's dispatcher adopts every worker — when it runs: one
// turned on by task.run is on for that server's life only, and the new
// server's is on again by its config or another task.run.
//
// Actor rules: Receive never blocks; every call goes out from a child
// (caller) with a deadline and comes back tagged with the worker and
// phase it answers, so an answer for a worker given up is dropped.
package dispatcher
