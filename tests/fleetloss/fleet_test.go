//go:build unix

package fleetloss

import (
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The fleet in the server: a local server links to a saved machine (a
// second herdr server behind a real sshd), lists its agents beside its
// own, forwards qualified calls and waits, streams its events to fleet
// subscribers, and survives the machine going away and coming back.

func TestFleet_LostMachineStaysVisibleAndComesBackWithoutDuplicates(t *testing.T) {
	f := StartFleet(t)
	pane := AgentWorkspace(t, f.Remote)
	f.Remote.WaitPrompt(t, pane)
	AgentCLI(t, f.Remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	if !Eventually(func() bool { return len(Named(f.FleetAgents(t), "alpha")) == 1 }) {
		t.Fatal("the remote agent was never listed")
	}
	events := SubscribeFleet(t, f.Local, "pane_agent_status_changed")

	f.Ssh.Kill(t)
	events.Next(t, "the machine going away", `"machine_state_changed"`, `"state":"offline"`, `"previous":"online"`)
	m := f.WaitState(t, protocol.MachineOffline)
	if m.Error == "" || m.Agents != 1 {
		t.Fatalf("an offline machine keeps its last mirror and says why: %+v", m)
	}
	stale := Named(f.FleetAgents(t), "alpha")
	if len(stale) != 1 || !stale[0].Stale {
		t.Fatalf("the lost machine's agent should be listed stale: %+v", stale)
	}
	Fail(t, f.Local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineOffline)

	// While it is away its agent starts working; back online, the change
	// arrives once (the stream resumes after the last event seen).
	AgentCLI(t, f.Remote, "agent", "prompt", "alpha", "w")
	AgentCLI(t, f.Remote, "agent", "wait", "alpha", "--until", "working", "--timeout", "10000")
	f.Ssh.Restart(t)
	events.Next(t, "the machine coming back", `"machine_state_changed"`, `"state":"online"`)
	f.WaitState(t, protocol.MachineOnline)
	events.Next(t, "the change made while away", `"pane_agent_status_changed"`, `"working"`, `"pane_id":"build/`+pane+`"`)
	var back []FleetAgent
	if !Eventually(func() bool {
		back = Named(f.FleetAgents(t), "alpha")
		return len(back) == 1 && !back[0].Stale && back[0].Status == "working"
	}) {
		t.Fatalf("after the machine came back alpha is listed as %+v", back)
	}
	// Nothing is delivered twice: no second working event for the pane.
	deadline := time.After(time.Second)
	for {
		select {
		case line := <-events.Lines:
			if strings.Contains(line, `"pane_agent_status_changed"`) && strings.Contains(line, `"working"`) {
				t.Fatalf("the status change was delivered twice: %s", line)
			}
		case <-deadline:
			return
		}
	}
}

// Two machines on one ssh host each have their own connection: letting
// go of the first (whose connection the second would otherwise ride on)
// leaves the second online and serving.
func TestFleet_TwoMachinesOnOneHostAreIndependent(t *testing.T) {
	f := StartFleet(t)
	pane := f.Remote.CreateWorkspace(t, map[string]any{"label": "far"}).RootPane.PaneID
	f.Remote.WaitPrompt(t, pane)
	if _, errOut, code := RunCLI(t, f.Env, "machine", "add", "build", "--label", "twin", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add twin: %s", errOut)
	}
	if !Eventually(func() bool { return f.StateOf(t, "twin") == protocol.MachineOnline }) {
		t.Fatalf("twin never came online: %s", f.StateOf(t, "twin"))
	}
	events := SubscribeFleet(t, f.Local, "pane_agent_status_changed")
	if _, errOut, code := RunCLI(t, f.Env, "machine", "disable", "build"); code != 0 {
		t.Fatalf("machine disable build: %s", errOut)
	}
	if !Eventually(func() bool { return f.StateOf(t, "build") == protocol.MachineDisabled }) {
		t.Fatal("build was never disabled")
	}
	// twin still answers, and never went offline.
	OK[protocol.PaneRead](t, f.Local.CallT(t, "pane.read", map[string]any{"pane_id": "twin/" + pane, "source": "recent"}), "pane_read")
	deadline := time.After(2 * time.Second)
	for {
		select {
		case line := <-events.Lines:
			if strings.Contains(line, `"label":"twin"`) && strings.Contains(line, `"machine_state_changed"`) {
				t.Fatalf("twin changed state when build was let go: %s", line)
			}
		case <-deadline:
			if s := f.StateOf(t, "twin"); s != protocol.MachineOnline {
				t.Fatalf("twin is %s", s)
			}
			return
		}
	}
}
