package server

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// statusOf decodes a pane_agent_status_changed line.
func statusOf(t *testing.T, e eventLine) protocol.PaneAgentStatusChangedEvent {
	t.Helper()
	var ev protocol.PaneAgentStatusChangedEvent
	if err := json.Unmarshal(e.Data, &ev); err != nil {
		t.Fatalf("decode %s: %v", e.Data, err)
	}
	return ev
}

// A subscription filtered on a status the pane already has gets one event
// at once, and it names the agent.
func TestAgentStatus_ImmediateEventNamesTheAgent(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	p := r.startAgent("claude", "w", protocol.StatusWorking)
	sub := subscribe(t, r.sock, `{"subscriptions":[{"type":"pane.agent_status_changed","pane_id":"`+p+`","agent_status":"working"}]}`)
	ev := statusOf(t, nextEvent(t, sub))
	if ev.AgentStatus != protocol.StatusWorking || ev.Agent == nil || *ev.Agent != "claude" {
		t.Fatalf("immediate event: status %s agent %v, want working and claude", ev.AgentStatus, ev.Agent)
	}
}

// Status changes reported 0.15–0.3 s apart, by a hook and by the screen,
// each reach a subscriber, in order: none is lost or reordered between the
// pane, the session and the agents actor.
func TestAgentStatus_NoTransitionLost(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	hooked := r.startAgent("pi", "w", protocol.StatusWorking)
	screen := r.startAgent("claude", "w", protocol.StatusWorking)
	sub := subscribe(t, r.sock, `{"subscriptions":[{"type":"pane.agent_status_changed","pane_id":"`+hooked+`"},{"type":"pane.agent_status_changed","pane_id":"`+screen+`"}]}`)
	rng := rand.New(rand.NewSource(1))
	want := map[string][]protocol.AgentStatus{}
	hookStates := []string{"blocked", "working"}
	for i := range 16 {
		st := hookStates[i%2]
		r.call("pane.report_agent", map[string]any{"pane_id": hooked, "source": "herdr:pi", "agent": "pi", "state": st}, nil)
		want[hooked] = append(want[hooked], protocol.AgentStatus(st))
		if i%2 == 0 { // the screen alternates too, at a pace detection samples
			cue, st := "b", protocol.StatusBlocked
			if i%4 == 2 {
				cue, st = "w", protocol.StatusWorking
			}
			r.send(screen, cue)
			want[screen] = append(want[screen], st)
		}
		time.Sleep(150*time.Millisecond + time.Duration(rng.Intn(150))*time.Millisecond)
	}
	got := map[string][]protocol.AgentStatus{}
	deadline := time.Now().Add(10 * time.Second)
	for (len(got[hooked]) < len(want[hooked]) || len(got[screen]) < len(want[screen])) && time.Now().Before(deadline) {
		ev := statusOf(t, nextEvent(t, sub))
		got[ev.PaneID] = append(got[ev.PaneID], ev.AgentStatus)
	}
	for _, p := range []string{hooked, screen} {
		if len(got[p]) != len(want[p]) {
			t.Fatalf("%s: got %v, want %v", p, got[p], want[p])
		}
		for i := range want[p] {
			if got[p][i] != want[p][i] {
				t.Fatalf("%s: got %v, want %v", p, got[p], want[p])
			}
		}
	}
}

// A busy full-screen agent's history is on the alternate screen: reading
// more recent lines than it shows answers agent_not_idle; reading what it
// shows works, and so does anything once it is idle.
func TestAgentRead_BusyFullScreenAgent(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	bin := t.TempDir()
	// claude drawing on the alternate screen, as the real one does.
	script := strings.Replace(fakeAgents["claude"], "stty -echo\n", "stty -echo\nprintf '\\033[?1049h'\n", 1)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r.env = map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	p := r.startAgent("claude", "w", protocol.StatusWorking)
	rows := r.pane(p).Scroll.ViewportRows
	read := map[string]any{"target": p, "source": "recent", "lines": rows + 20}
	r.wantCode(protocol.CodeAgentNotIdle, "agent.read", read)
	r.call("agent.read", map[string]any{"target": p, "source": "recent", "lines": rows}, nil)
	r.call("agent.read", map[string]any{"target": p, "source": "visible", "lines": rows + 20}, nil)
	r.send(p, "i")
	waitFor(t, "claude idle", func() bool {
		st := r.pane(p).AgentStatus
		return st == protocol.StatusIdle || st == protocol.StatusDone
	})
	r.call("agent.read", read, nil)
}

// An idle full-screen agent's history beyond its screen is read by
// scrolling it with the wheel and stitching the pages; afterwards it is
// scrolled back to where it was.
func TestAgentRead_StitchesAFullScreenTranscript(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "claude"), "./testdata/fullscreen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the full-screen fake: %v\n%s", err, out)
	}
	r.env = map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	p := r.newPane()
	r.call("pane.focus", map[string]any{"pane_id": p}, nil)
	r.send(p, "claude")
	waitFor(t, "claude idle with its input box drawn", func() bool {
		pi := r.pane(p)
		if pi.Agent == nil || *pi.Agent != "claude" || (pi.AgentStatus != protocol.StatusIdle && pi.AgentStatus != protocol.StatusDone) {
			return false
		}
		// Its process is recognised before it draws (a loaded machine
		// starts it slowly): wait for the screen too.
		var shown protocol.PaneRead
		r.call("pane.read", map[string]any{"pane_id": p, "source": "visible"}, &shown)
		return strings.Contains(shown.Read.Text, "? for shortcuts")
	})
	var read protocol.PaneRead
	r.call("agent.read", map[string]any{"target": p, "source": "recent", "lines": 100}, &read)
	lines := strings.Split(read.Read.Text, "\n")
	if len(lines) != 100 || lines[len(lines)-1] != "  ? for shortcuts" {
		t.Fatalf("%d lines, ending %q; want 100 ending with the input box's last row", len(lines), lines[len(lines)-1])
	}
	body := lines[:len(lines)-4]
	for i, l := range body {
		if want := fmt.Sprintf("transcript-%03d", 300-len(body)+i); l != want {
			t.Fatalf("line %d is %q, want %q (the pages did not stitch):\n%s", i, l, want, read.Read.Text)
		}
	}
	waitFor(t, "the transcript scrolled back down", func() bool {
		var v protocol.PaneRead
		r.call("pane.read", map[string]any{"pane_id": p, "source": "visible"}, &v)
		return strings.Contains(v.Read.Text, "transcript-299")
	})
}
