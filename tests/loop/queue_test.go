package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestQueue_OnePromptPerTurnInOrderAcrossARestart: prompts queued while
// the queue is paused wait through a finished turn; resumed, each is
// typed after one finished turn, in order, once; bad input changes
// nothing; a paused queue and its prompts come back after a restart and
// go on from there.
func TestQueue_OnePromptPerTurnInOrderAcrossARestart(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "q")
	pane, log := startFake(t, s)

	// Bad input first: nothing is queued by any of it.
	Fail(t, s.Call("agent.queue.add", map[string]any{"target": "nobody", "text": "x"}), protocol.CodeAgentNotFound)
	Fail(t, s.Call("agent.queue.add", map[string]any{"target": pane, "text": "  "}), protocol.CodeInvalidParams)
	msg := Fail(t, s.Call("agent.queue.add", map[string]any{"target": pane, "text": strings.Repeat("x", protocol.QueueMaxBytes+1)}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "nothing was queued") {
		t.Fatalf("an oversized prompt's error: %s", msg)
	}
	// 10 MB is more than a request line: refused before any handler.
	c := s.Dial(t)
	huge := `{"id":"big","method":"agent.queue.add","params":{"target":"` + pane + `","text":"` + strings.Repeat("y", 10<<20) + `"}}`
	go func() { _ = c.WriteLine([]byte(huge)) }()
	if line, err := c.ReadLine(); err != nil || !strings.Contains(string(line), `"code":"invalid_request"`) {
		t.Fatalf("a 10 MB entry: %s, %v", line, err)
	}
	Fail(t, s.Call("agent.queue.remove", map[string]any{"target": pane, "index": 0}), protocol.CodeQueueIndex)
	if q := queueOf(t, s, pane); len(q.Prompts) != 0 {
		t.Fatalf("bad input queued something: %+v", q)
	}

	sub := s.Dial(t)
	if err := sub.WriteLine([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"agent.queue_changed"}]}}`)); err != nil {
		t.Fatal(err)
	}
	if ack, err := sub.ReadLine(); err != nil || !strings.Contains(string(ack), `"id":"sub"`) || strings.Contains(string(ack), `"error"`) {
		t.Fatalf("subscribe: %s, %v", ack, err)
	}
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane}), "agent_queue")
	for _, p := range []string{"one", "two", "three", "dropped"} {
		AgentCLI(t, s, "agent", "queue", "add", pane, p)
	}
	Fail(t, s.Call("agent.queue.remove", map[string]any{"target": pane, "index": 4}), protocol.CodeQueueIndex)
	AgentCLI(t, s, "agent", "queue", "remove", pane, "--index", "3")
	if q := queueOf(t, s, pane); len(q.Prompts) != 3 || q.Prompts[2].Text != "three" || !q.Paused {
		t.Fatalf("queue after adds and a remove: %+v", q)
	}
	for _, change := range []string{"paused", "added", "added", "added", "added", "removed"} {
		line, err := sub.ReadLine()
		if err != nil || !strings.Contains(string(line), `"change":"`+change+`"`) || !strings.Contains(string(line), `"pane_id":"`+pane+`"`) {
			t.Fatalf("agent_queue_changed %s: %s, %v", change, line, err)
		}
	}
	sub.Close()
	WaitFor(t, "queue_length 3 in the agent's record", func() bool { return agent(t, s, pane).QueueLength == 3 })

	// A finished turn while paused types nothing.
	cue(t, s, pane, "start")
	waitStatus(t, s, pane, protocol.StatusWorking)
	cue(t, s, pane, ".")
	waitStatus(t, s, pane, protocol.StatusDone, protocol.StatusIdle)
	if q := queueOf(t, s, pane); len(q.Prompts) != 3 {
		t.Fatalf("a paused queue delivered: %+v", q)
	}

	// Resumed: the turn it has not answered yet takes "one"; each next
	// finished turn the next.
	AgentCLI(t, s, "agent", "queue", "pause", pane, "--resume")
	waitLog(t, log, "prompt start", "prompt one")
	waitStatus(t, s, pane, protocol.StatusWorking)
	if q := queueOf(t, s, pane); len(q.Prompts) != 2 || q.Delivered != 1 {
		t.Fatalf("after one delivery: %+v", q)
	}
	// Blocked mid-turn: nothing is typed into the question; the answer's
	// turn, once finished, takes the next prompt.
	cue(t, s, pane, "b")
	waitStatus(t, s, pane, protocol.StatusBlocked)
	OK[protocol.InboxAnswered](t, s.CallT(t, "inbox.answer", map[string]any{"pane_id": pane, "choice": "1"}), "inbox_answered")
	waitStatus(t, s, pane, protocol.StatusWorking)
	cue(t, s, pane, ".")
	waitLog(t, log, "prompt start", "prompt one", "answer 1", "prompt two")

	// Paused again, then the server restarts with "three" queued.
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane, "paused": true}), "agent_queue")
	cue(t, s, pane, ".")
	waitStatus(t, s, pane, protocol.StatusDone, protocol.StatusIdle)
	s.Stop()
	if raw, err := os.ReadFile(filepath.Join(filepath.Dir(h.SessionFile("q")), "queues.json")); err != nil || !strings.Contains(string(raw), `"three"`) {
		t.Fatalf("queues.json after the stop: %s, %v", raw, err)
	}

	s = h.Start(t, "q")
	WaitFor(t, "the pane restored", func() bool { return s.Call("pane.get", map[string]any{"pane_id": pane}).Error == nil })
	runFake(t, s, pane, filepath.Join(s.Home.Dir, "bin"), log)
	q := queueOf(t, s, pane)
	if len(q.Prompts) != 1 || q.Prompts[0].Text != "three" || !q.Paused {
		t.Fatalf("queue after the restart: %+v", q)
	}
	AgentCLI(t, s, "agent", "queue", "pause", pane, "--resume")
	cue(t, s, pane, "again")
	waitStatus(t, s, pane, protocol.StatusWorking)
	cue(t, s, pane, ".")
	waitLog(t, log, "prompt start", "prompt one", "answer 1", "prompt two", "prompt again", "prompt three")
	cue(t, s, pane, ".")
	waitStatus(t, s, pane, protocol.StatusDone, protocol.StatusIdle)
	if q := queueOf(t, s, pane); len(q.Prompts) != 0 {
		t.Fatalf("queue at the end: %+v", q)
	}
	if got := logLines(t, log); len(got) != 6 {
		t.Fatalf("a prompt typed twice: %q", got)
	}
	if a := agent(t, s, pane); a.QueueLength != 0 {
		t.Fatalf("queue_length at the end: %d", a.QueueLength)
	}

	// Bounded: past QueueMaxLength an add is refused and changes nothing;
	// clear empties it.
	OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.pause", map[string]any{"target": pane}), "agent_queue")
	for i := range protocol.QueueMaxLength {
		OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.add", map[string]any{"target": pane, "text": fmt.Sprint("p", i)}), "agent_queue")
	}
	Fail(t, s.Call("agent.queue.add", map[string]any{"target": pane, "text": "one too many"}), protocol.CodeQueueFull)
	if q := queueOf(t, s, pane); len(q.Prompts) != protocol.QueueMaxLength || q.Prompts[protocol.QueueMaxLength-1].Text != fmt.Sprint("p", protocol.QueueMaxLength-1) {
		t.Fatalf("a full queue changed: %d prompts", len(q.Prompts))
	}
	AgentCLI(t, s, "agent", "queue", "clear", pane)
	if q := queueOf(t, s, pane); len(q.Prompts) != 0 || !q.Paused {
		t.Fatalf("after clear: %+v", q)
	}
}
