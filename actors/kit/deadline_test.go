package kit

import (
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// Deadline: a wait without timeout_ms has none, one with it gets that
// on top of the fixed deadline, anything else the fixed deadline.
func TestDeadlineOf(t *testing.T) {
	ms := uint64(5000)
	fixed := time.Minute
	for _, c := range []struct {
		params any
		want   time.Duration
	}{
		{&protocol.EventsWaitParams{}, 0},
		{&protocol.EventsWaitParams{TimeoutMS: &ms}, fixed + 5*time.Second},
		{&protocol.PaneWaitForOutputParams{}, 0},
		{&protocol.AgentWaitParams{TimeoutMS: &ms}, fixed + 5*time.Second},
		{&protocol.AgentPromptParams{}, fixed},
		{&protocol.AgentPromptParams{Wait: &protocol.AgentPromptWaitOptions{}}, 0},
		{&protocol.AgentStartParams{TimeoutMS: &ms}, fixed + 5*time.Second},
		{nil, fixed},
	} {
		if got := Deadline(c.params, fixed); got != c.want {
			t.Errorf("Deadline(%T) = %v, want %v", c.params, got, c.want)
		}
	}
}
