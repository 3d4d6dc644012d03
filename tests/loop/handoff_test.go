//go:build unix

package loop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestQueue_LiveHandoffKeepsTheKey: a live handoff carries the agents'
// completion counters and the queues' keys with them. The prompt typed
// for the agent's last finished turn is not followed by another on the
// new server until the agent finishes a new turn: the queue's next
// prompt comes after the probe's turn, never before it, and nothing is
// typed twice.
func TestQueue_LiveHandoffKeepsTheKey(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "ho")
	StopHeir(t, s)
	pane, log := startFake(t, s)
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane}), "agent_queue")
	for _, p := range []string{"quiet please", "next"} {
		OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.add", map[string]any{"target": pane, "text": p}), "agent_queue")
	}
	cue(t, s, pane, "start")
	waitStatus(t, s, pane, protocol.StatusWorking)
	cue(t, s, pane, ".")
	waitStatus(t, s, pane, protocol.StatusDone, protocol.StatusIdle)
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane, "paused": false}), "agent_queue")
	// "quiet please" answers turn 1 and starts none: the agent stays idle.
	waitLog(t, log, "prompt start", "prompt quiet please")

	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	q := queueOf(t, s, pane)
	if len(q.Prompts) != 1 || q.Prompts[0].Text != "next" || q.Delivered != 1 {
		t.Fatalf("queue after the handoff: %+v", q)
	}
	// An add makes the new server look: turn 1 is answered already.
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.add", map[string]any{"target": pane, "text": "last"}), "agent_queue")
	cue(t, s, pane, "probe")
	waitStatus(t, s, pane, protocol.StatusWorking)
	cue(t, s, pane, ".")
	waitLog(t, log, "prompt start", "prompt quiet please", "prompt probe", "prompt next")
	cue(t, s, pane, ".")
	waitLog(t, log, "prompt start", "prompt quiet please", "prompt probe", "prompt next", "prompt last")

	// A closed pane's queue goes, from queues.json too.
	file := filepath.Join(filepath.Dir(h.SessionFile("ho")), "queues.json")
	term := agent(t, s, pane).TerminalID
	if raw, err := os.ReadFile(file); err != nil || !strings.Contains(string(raw), term) {
		t.Fatalf("queues.json before the close: %s, %v", raw, err)
	}
	OK[protocol.OK](t, s.CallT(t, "pane.close", map[string]any{"pane_id": pane}), "ok")
	WaitFor(t, "the closed pane's queue gone from queues.json", func() bool {
		raw, err := os.ReadFile(file)
		return err == nil && !strings.Contains(string(raw), term)
	})
}
