package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// fakeClaude is a stand-in for the Claude Code CLI: it draws what Claude
// shows while working, while asking permission and when idle, on cue from
// its stdin (w = working, b = blocked, i = idle, q = quit).
const fakeClaude = `#!/bin/sh
stty -echo
while read cue; do
  printf '\033[2J\033[H'
  case "$cue" in
    w) printf '* Thinking… (esc to interrupt)\n' ;;
    b) printf 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n' ;;
    i) printf 'Done. All tests pass.\n' ;;
    q) exit 0 ;;
  esac
done
`

func waitFor(t *testing.T, why string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAgents_DetectionAndSeenRule(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	sock := startServer(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	c := dial(t, sock)
	env := map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp", "env": env}, nil); err != nil {
		t.Fatal(err)
	}
	statuses := subscribe(t, sock, `{"subscriptions":[{"type":"pane.agent_status_changed","pane_id":"w1:p1"},{"type":"pane.agent_detected"}]}`)
	status := func() (agent string, st protocol.AgentStatus) {
		var got protocol.PaneInfoResult
		if err := c.Call("pane.get", map[string]any{"pane_id": "w1:p1"}, &got); err != nil {
			t.Fatal(err)
		}
		if got.Pane.Agent != nil {
			agent = *got.Pane.Agent
		}
		return agent, got.Pane.AgentStatus
	}
	send := func(cue string) {
		if err := c.Call("pane.send_input", map[string]any{"pane_id": "w1:p1", "text": cue, "keys": []string{"Enter"}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if a, st := status(); a != "" || st != protocol.StatusUnknown {
		t.Fatalf("plain shell: agent %q status %s", a, st)
	}
	send("claude")
	send("w")
	waitFor(t, "claude working", func() bool { a, st := status(); return a == "claude" && st == protocol.StatusWorking })
	send("b")
	waitFor(t, "claude blocked", func() bool { _, st := status(); return st == protocol.StatusBlocked })

	// Finishing while its tab is on screen: idle, seen.
	send("i")
	waitFor(t, "claude idle", func() bool { _, st := status(); return st == protocol.StatusIdle })

	// Finishing while another tab is on screen: done, until looked at.
	if err := c.Call("tab.create", map[string]any{"workspace_id": "w1", "focus": true}, nil); err != nil {
		t.Fatal(err)
	}
	send("w")
	waitFor(t, "working again", func() bool { _, st := status(); return st == protocol.StatusWorking })
	send("i")
	waitFor(t, "claude done", func() bool { _, st := status(); return st == protocol.StatusDone })
	var tabs protocol.TabList
	c.Call("tab.list", map[string]any{"workspace_id": "w1"}, &tabs)
	if tabs.Tabs[0].AgentStatus != protocol.StatusDone {
		t.Fatalf("tab roll-up = %s, want done", tabs.Tabs[0].AgentStatus)
	}
	var agents protocol.AgentList
	if err := c.Call("agent.list", nil, &agents); err != nil || len(agents.Agents) != 1 || agents.Agents[0].AgentStatus != protocol.StatusDone {
		t.Fatalf("agent.list = %+v %v", agents, err)
	}
	if err := c.Call("tab.focus", map[string]any{"tab_id": "w1:t1"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, st := status(); st != protocol.StatusIdle {
		t.Fatalf("after focusing its tab: %s, want idle", st)
	}

	// The stream saw the detection and every status in order.
	var seen []string
	for len(seen) < 7 {
		e := nextEvent(t, statuses)
		switch e.Event {
		case "pane_agent_detected":
			seen = append(seen, "detected")
		case "pane.agent_status_changed":
			for _, st := range []string{"working", "blocked", "idle", "done"} {
				// Detected before its first cue, the fresh agent is idle first.
				if strings.Contains(string(e.Data), `"agent_status":"`+st+`"`) && (st != "idle" || len(seen) != 1) {
					seen = append(seen, st)
				}
			}
		}
	}
	want := "detected working blocked idle working done idle"
	if strings.Join(seen, " ") != want {
		t.Fatalf("events: %s, want %s", strings.Join(seen, " "), want)
	}
}
