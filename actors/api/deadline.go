package api

import (
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// DefaultCallDeadline is how long a connection waits for the answer to a
// request before it answers internal_error and goes on with the requests
// behind it (InFlight). It is a safety net for an answer that was
// lost, far beyond the longest work a request legitimately asks of the
// server: a worktree operation runs a few git commands of at most 30 s
// each, a plugin command 60 s by default (the server raises the deadline
// to a longer configured one).
const DefaultCallDeadline = 5 * time.Minute

// Deadline is how long the answer to a request with params may take: a
// request that asks to wait timeout_ms gets that on top of the fixed
// deadline, and one that waits without a timeout (events.wait,
// pane.wait_for_output, agent.wait, agent.prompt's wait) none (≤ 0): it
// ends when its client goes.
func Deadline(params any, fixed time.Duration) time.Duration {
	var ms *uint64
	switch p := params.(type) {
	case *protocol.EventsWaitParams:
		if ms = p.TimeoutMS; ms == nil {
			return 0
		}
	case *protocol.PaneWaitForOutputParams:
		if ms = p.TimeoutMS; ms == nil {
			return 0
		}
	case *protocol.AgentWaitParams:
		if ms = p.TimeoutMS; ms == nil {
			return 0
		}
	case *protocol.AgentPromptParams:
		if p.Wait != nil {
			if ms = p.Wait.TimeoutMS; ms == nil {
				return 0
			}
		}
	case *protocol.AgentStartParams:
		ms = p.TimeoutMS
	}
	if ms != nil {
		return fixed + time.Duration(*ms)*time.Millisecond
	}
	return fixed
}
