package kit

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
	w, ok := params.(protocol.Waiting)
	if !ok {
		return fixed
	}
	switch waits, timeout := w.Waits(); {
	case !waits:
		return fixed
	case timeout == 0:
		return 0
	default:
		return fixed + timeout
	}
}
