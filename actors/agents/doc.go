// Package agents is the agents actor: the authority for what runs in each
// pane as an agent. It owns the hook authority integrations report
// (pane.report_agent and friends), pane metadata with its TTL timers,
// agent names and launches, prompts and waits, the agent view, and the
// public status with its seen/done rule and state_change_seq.
//
// It is a sibling of the session, not its child, and the two exchange
// tells only (no asks):
//
//   - the session tells it where panes are (a Placement: ids, order, the
//     focused tab, each pane's actor) whenever that changes, and forwards
//     the screen facts a pane reports about its agent;
//   - the session resolves the target of an agent or hook method (pane
//     ids in every legacy form, agent names from its read model) and
//     forwards the call with the terminal id as a Request;
//   - after each message it tells the session what the session's read
//     model shows of every pane whose agent record changed (a Shown),
//     then publishes the agent events, then answers. A caller, or a
//     subscriber, that reacts to an answer or an event and asks the
//     session finds the change there already.
//
// The session tells it, as it restores, which restored panes' agents to
// resume (a Resume each), and when the first client attaches
// (ClientAttached): the actor types the resume commands then, 100 ms
// apart, or after a grace period without a client (resume.go). A hook's
// resume_argv is kept with the agent session, saved with it and typed
// word for word, but no record shows it.
//
// A self-reported agent (hook authority for an agent the screen does not
// show) is cleared when the pane's facts say a program gave the terminal
// back to the shell (pane.Facts.Job, status.go: jobChanged); a report
// asks its pane for a fresh look at the job (pane.RefreshJob), so a
// program that prints nothing is seen running. A report made while the
// shell waits is kept until a program has run. A resume whose command the
// shell refused, or that ended before its agent showed, is the pane's
// restore_error (resume.go: resumeFailed).
//
// An agent.start's pane watches the shell it typed into (pane/launch.go):
// when the shell has the terminal back before the agent shows (not
// found, or ended), it tells this actor LaunchFailed, which drops the
// name, logs it at warn and keeps the shell's words for agent.get of
// that name (protocol.AgentDidNotStart), so `herdr agent start` answers
// agent_start_failed at once instead of at its timeout.
//
// The plugins actor tells it, through the session, which plugins are
// linked and enabled (SetEnabledPlugins): a view a plugin set ends when
// that plugin is disabled or unlinked, as agent.view.clear ends it, and
// the plugin call that did it is answered after that (view.go).
//
// agent.prompt's text, whoever composed it (task.dispatch from a task's
// description, an agent over MCP), is typed through protocol.TypedText:
// newlines and tabs stay, every other control character, ESC and the
// bracketed-paste markers do not, so a prompt cannot end the agent and
// run the rest in its shell, nor reach the terminal. Keys are the
// person's own (pane.send_keys, send_text, send_input, agent.send_keys)
// and are typed as given. An argv typed into a shell (agent.start, a
// resume) is quoted for the shell running in the pane (shellquote).
//
// Answers that carry an agent record (agent.rename, agent.wait, …) are
// rendered by the session from its read model, so there is one builder
// of protocol.AgentInfo: the actor sends the session an Answer to render.
package agents
