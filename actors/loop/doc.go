// Package loop is the agent loop's actor (issue 49): what people do next
// once herdr knows an agent finished or asks a question.
//
// Queued prompts (agent.queue.*): a list of prompts per agent, kept by the
// agent's terminal id (stable across moves and a live handoff); a cold
// restart gives the restored panes new terminals, and the queue saved for
// a pane's former terminal, which no pane shows any more, is taken over by
// the pane's new one. Bounds: protocol.QueueMaxBytes a prompt,
// protocol.QueueMaxLength prompts a queue.
// Each time the agent finishes a turn (its status becomes done, or idle
// after working) the next prompt is typed into it with agent.prompt, never
// while it is blocked or working, nor while the queue is paused. Delivery
// is keyed by the agent's completion_seq: a queue remembers the counter of
// the turn its last prompt answered and types the next only for a later
// one, so a status seen twice (an event and a re-read, a handoff's carried
// counter) types nothing twice. The queues are saved to queues.json beside
// session.json by a writer goroutine, and a prompt is typed only once the
// version without it is on disk: a crash between the two loses that prompt
// rather than typing it twice. A cold start's agents count their turns
// from 0 again, so the keys restart with them; a live handoff carries the
// counters, and the keys with them.
//
// The inbox (inbox.*): every blocked agent, the screen lines that make it
// blocked and the answers they offer (numbered choices such as Claude's
// "❯ 1. Yes", codex's "› 1. Yes, proceed (y)", yes/no prompts),
// fingerprinted; inbox.answer reads the screen again and types only while
// the agent is still blocked on the same question.
//
// Notifications ([notify] webhook): an agent that blocks or finishes is
// POSTed ntfy-style (a Title header, the body the question or last line),
// at most [notify] per_minute a minute; what is over the bound is dropped
// and counted in a warn line.
//
// One actor for the three because they follow the same events (an
// agent's status) and the same screens; each is a file here. Every call
// it makes (agent.get, pane.read, agent.prompt, pane.send_input) goes
// through the public API from a short-lived child, as the dispatcher's
// do, so its Receive never waits.
package loop
