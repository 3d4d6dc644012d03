//go:build unix

package lossless

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Live handoff loses nothing (issue 28): output a program writes while the
// server is handed over is all in its pane afterwards.

// cntLoop prints CNT-1..300 every 20 ms, then CNT-DONE: it runs through a
// handoff, which takes a few hundred milliseconds.
const cntLoop = `for i in $(seq 1 300); do echo CNT-$i; sleep 0.02; done; echo CNT-DONE`

// handoffShellPID is the pane's shell's pid.
func handoffShellPID(t *testing.T, s *Server, pane string) uint32 {
	t.Helper()
	info := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": pane}), "pane_process_info").ProcessInfo
	if info.ShellPID == nil {
		t.Fatalf("%s: no shell pid: %+v", pane, info)
	}
	return *info.ShellPID
}

// handOffDuringCount starts the counter in pane, hands the server over
// once it has printed a little, and checks that every line of it is in
// the pane, read from the new server, and that the shells in pids are
// the same processes.
func handOffDuringCount(t *testing.T, s *Server, pane string, panes []string) {
	t.Helper()
	pids := map[string]uint32{}
	for _, p := range panes {
		pids[p] = handoffShellPID(t, s, p)
	}
	s.Run(t, pane, cntLoop)
	s.WaitLine(t, pane, "CNT-5")
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	if got := s.WaitExit(t); got != 0 {
		t.Fatalf("old server exit code %d, want 0", got)
	}
	// Unwrapped: in a narrow pane the command's own echo wraps, and
	// "CNT-DONE" from it would be a row of its own in a wrapped read.
	var text string
	deadline := time.Now().Add(time.Minute) // the loop takes 6 s idle, far longer on a loaded machine
	for !HasLine(text, "CNT-DONE") {
		if time.Now().After(deadline) {
			t.Fatalf("the counter never finished in the adopted pane; it shows:\n%s", text)
		}
		time.Sleep(50 * time.Millisecond) // poll interval
		text = s.Read(t, pane, "recent_unwrapped", 2000).Text
	}
	var missing []string
	for i := 1; i <= 300; i++ {
		if !HasLine(text, fmt.Sprintf("CNT-%d", i)) {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		t.Fatalf("lines missing after the handoff: CNT-%s; the pane shows:\n%s", strings.Join(missing, ",CNT-"), text)
	}
	for _, p := range panes {
		if got := handoffShellPID(t, s, p); got != pids[p] {
			t.Fatalf("%s: shell pid %d after the handoff, %d before", p, got, pids[p])
		}
	}
}

func TestHandoffLossless_OnePane(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	pane := s.CreateWorkspace(t, nil).RootPane.PaneID
	handOffDuringCount(t, s, pane, []string{pane})
}

// Several panes, one with a long scrollback and one an agent mid-turn, and
// an interactive client attached.
func TestHandoffLossless_SeveralPanesAndAClient(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	StopHeir(t, s)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(FakeClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	scroll := s.CreateWorkspace(t, map[string]any{"env": env, "focus": true}).RootPane.PaneID
	split := func() string {
		return OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": scroll, "direction": "down", "env": env}), "pane_info").Pane.PaneID
	}
	sleeper, counter, agent := split(), split(), split()
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "four panes", func(screen string) bool { return FramedPanes(screen) >= 4 })

	s.Run(t, scroll, "for i in $(seq 1 300); do echo scroll-$i; done")
	s.WaitLine(t, scroll, "scroll-300")
	s.Run(t, sleeper, "sleep 1000")
	s.Run(t, agent, "claude")
	s.WaitLine(t, agent, "claude ready")
	s.Run(t, agent, "w")
	WaitFor(t, "claude working", func() bool {
		resp := s.Call("agent.get", map[string]any{"target": agent})
		if resp.Error != nil {
			return false
		}
		a := OK[protocol.AgentInfoResult](t, resp, "agent_info").Agent
		return a.Agent != nil && *a.Agent == "claude" && a.AgentStatus == protocol.StatusWorking
	})
	handOffDuringCount(t, s, counter, []string{scroll, sleeper, counter, agent})
	if text := s.Read(t, scroll, "recent", 2000).Text; !HasLine(text, "scroll-1") || !HasLine(text, "scroll-300") {
		t.Fatalf("scrollback lost:\n%s", text)
	}
	if c.Exited() {
		t.Fatal("the client exited at the handoff")
	}
}

// A subscriber that resumes with since_seq after a handoff gets the events
// it missed on both sides of it, numbered on, not events_lost.
func TestHandoffLossless_EventsResumeAcrossTheHandoff(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	s.CreateWorkspace(t, nil)
	rename := func(label string) {
		OK[protocol.TabInfoResult](t, s.CallT(t, "tab.rename", map[string]any{"tab_id": "w1:t1", "label": label}), "tab_info")
	}
	type event struct {
		Seq  uint64 `json:"seq"`
		Data struct {
			Label string `json:"label"`
		} `json:"data"`
	}
	const filter = `"subscriptions":[{"type":"tab.renamed"}]`
	sub := s.Dial(t)
	_ = sub.Conn().SetDeadline(time.Now().Add(time.Minute))
	if ack, err := sub.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{` + filter + `}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %s %v", ack, err)
	}
	rename("seen")
	var seen event
	if line, err := sub.ReadLine(); err != nil || json.Unmarshal(line, &seen) != nil || seen.Data.Label != "seen" {
		t.Fatalf("first event: %s %v", line, err)
	}
	sub.Close() // the subscriber goes away; what follows it misses
	rename("missed-before-1")
	rename("missed-before-2")
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	rename("missed-after-1")
	rename("missed-after-2")

	resumed := s.Dial(t)
	_ = resumed.Conn().SetDeadline(time.Now().Add(time.Minute))
	params := fmt.Sprintf(`{"since_seq":%d,%s}`, seen.Seq, filter)
	if ack, err := resumed.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":` + params + `}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("resubscribe: %s %v", ack, err)
	}
	want := []string{"missed-before-1", "missed-before-2", "missed-after-1", "missed-after-2"}
	last := seen.Seq
	for _, label := range want {
		line, err := resumed.ReadLine()
		var ev event
		if err != nil || json.Unmarshal(line, &ev) != nil {
			t.Fatalf("resumed stream, waiting for %s: %s %v", label, line, err)
		}
		if ev.Data.Label != label || ev.Seq <= last {
			t.Fatalf("resumed stream: got %s, want %s with a seq past %d", line, label, last)
		}
		last = ev.Seq
	}
	// Nothing else came: the next line is the event made now.
	rename("now")
	line, err := resumed.ReadLine()
	var ev event
	if err != nil || json.Unmarshal(line, &ev) != nil || ev.Data.Label != "now" || ev.Seq <= last {
		t.Fatalf("after the missed events: %s %v, want label now past seq %d", line, err, last)
	}
}
