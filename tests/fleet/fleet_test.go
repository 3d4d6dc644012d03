//go:build unix

package fleet

import (
	"encoding/json"
	"os"
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

// The server follows machines.json: a machine disabled is let go (its
// calls refused, its state disabled), enabled again it comes back, and a
// new label qualifies its ids from then on. A machine whose far side is
// not herdr needs a person: attention, with the reason.
func TestFleet_FollowsTheProfilesAndNeedsAPersonForABadRemote(t *testing.T) {
	f := StartFleet(t)
	pane := f.Remote.CreateWorkspace(t, map[string]any{"label": "far"}).RootPane.PaneID
	f.Remote.WaitPrompt(t, pane)

	// Qualified ids in the CLI's positional arguments, and events.wait.
	if _, errOut, code := f.Local.CLI("pane", "send-text", "build/"+pane, "echo fleet-$((6*7))"); code != 0 {
		t.Fatalf("pane send-text: %s", errOut)
	}
	if _, errOut, code := f.Local.CLI("pane", "send-keys", "build/"+pane, "Enter"); code != 0 {
		t.Fatalf("pane send-keys: %s", errOut)
	}
	var text string
	if !Eventually(func() bool {
		text, _, _ = f.Local.CLI("pane", "read", "build/"+pane, "--lines", "20")
		return HasLine(text, "fleet-42")
	}) {
		t.Fatalf("pane read build/%s:\n%s", pane, text)
	}

	if _, errOut, code := RunCLI(t, f.Env, "machine", "disable", "build"); code != 0 {
		t.Fatalf("machine disable: %s", errOut)
	}
	f.WaitState(t, protocol.MachineDisabled)
	Fail(t, f.Local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineOffline)
	if _, errOut, code := RunCLI(t, f.Env, "machine", "enable", "build"); code != 0 {
		t.Fatalf("machine enable: %s", errOut)
	}
	f.WaitState(t, protocol.MachineOnline)
	if _, errOut, code := RunCLI(t, f.Env, "machine", "rename", "build", "--label", "gpu"); code != 0 {
		t.Fatalf("machine rename: %s", errOut)
	}
	var read protocol.PaneRead
	if !Eventually(func() bool {
		resp := f.Local.Call("pane.read", map[string]any{"pane_id": "gpu/" + pane, "source": "recent"})
		if resp.Error != nil {
			return false
		}
		json.Unmarshal(resp.Result, &read)
		return read.Read.PaneID == "gpu/"+pane
	}) {
		t.Fatalf("after the rename the pane reads as %+v", read.Read)
	}
	Fail(t, f.Local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineNotFound)

	// The far side stops being herdr (a profile edited by hand).
	b, err := os.ReadFile(MachinesFile(f.Local.Home))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"target": "build",`, `"target": "build", "remote_bin": "/bin/cat",`, 1)
	if edited == string(b) {
		t.Fatalf("machines.json has no target line to edit:\n%s", b)
	}
	SshTestFile(t, MachinesFile(f.Local.Home), edited, 0o600)
	var m protocol.MachineInfo
	if !Eventually(func() bool {
		list := OK[protocol.MachineList](t, f.Local.CallT(t, "machine.list", map[string]any{}), "machine_list")
		m = list.Machines[0]
		return m.State == protocol.MachineAttention
	}) {
		t.Fatalf("a remote that is not herdr: %+v", m)
	}
	if !strings.Contains(m.Error, "without answering as herdr") {
		t.Fatalf("attention without its reason: %+v", m)
	}
}

// A fleet subscription may name another machine's pane: its agent status
// changes arrive in the dedicated envelope, with qualified ids, and only
// that pane's (and only the status asked for). Without "machines":"all",
// naming an unknown machine, or asking for what a machine does not
// stream is refused, each saying why.
func TestFleet_SubscriptionNamesARemotePane(t *testing.T) {
	f := StartFleet(t)
	pane := AgentWorkspace(t, f.Remote)
	other := f.Remote.CreateWorkspace(t, map[string]any{"label": "other"}).RootPane.PaneID
	f.Remote.WaitPrompt(t, pane)
	qualified := "build/" + pane
	// By label and by machine id, each with a status filter.
	id := f.Machine(t).ID
	events := SubscribeFleetTo(t, f.Local, []map[string]any{
		{"type": "pane.agent_status_changed", "pane_id": qualified, "agent_status": "working"},
		{"type": "pane.agent_status_changed", "pane_id": id + "/" + other},
	})

	AgentCLI(t, f.Remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	// The events are in order: the first line is the first working, the
	// next one the second working, with idle and done between them left
	// out, and nothing of the other pane or of another kind.
	working := func(why string) {
		t.Helper()
		AgentCLI(t, f.Remote, "agent", "prompt", "alpha", "w")
		AgentCLI(t, f.Remote, "agent", "wait", "alpha", "--until", "working", "--timeout", "10000")
		var line string
		select {
		case line = <-events.Lines:
		case <-time.After(WaitTimeout):
			t.Fatalf("%s: no event", why)
		}
		for _, want := range []string{`"event":"pane.agent_status_changed"`, `"pane_id":"` + qualified + `"`, `"agent_status":"working"`, `"workspace_id":"build/`, `"label":"build"`} {
			if !strings.Contains(line, want) {
				t.Fatalf("%s: the event lacks %s: %s", why, want, line)
			}
		}
	}
	working("the first prompt")
	AgentCLI(t, f.Remote, "agent", "prompt", "alpha", "i")
	AgentCLI(t, f.Remote, "agent", "wait", "alpha", "--until", "idle", "--until", "done", "--timeout", "10000")
	working("the second prompt")

	// A pane whose agent already has the status asked for is told at
	// once, as a local one is: the first line after the answer.
	if !Eventually(func() bool {
		a := Named(f.FleetAgents(t), "alpha")
		return len(a) == 1 && a[0].Status == "working"
	}) {
		t.Fatal("the fleet never listed alpha working")
	}
	already := SubscribeFleetTo(t, f.Local, []map[string]any{{"type": "pane.agent_status_changed", "pane_id": qualified, "agent_status": "working"}})
	select {
	case line := <-already.Lines:
		if !strings.Contains(line, `"event":"pane.agent_status_changed"`) || !strings.Contains(line, `"pane_id":"`+qualified+`"`) || !strings.Contains(line, `"agent_status":"working"`) {
			t.Fatalf("the initial line of a pane already working: %s", line)
		}
	case <-time.After(WaitTimeout):
		t.Fatal("no initial line for a remote pane already working")
	}

	sub := func(params map[string]any) protocol.Response {
		c := f.Local.Dial(t)
		defer c.Close()
		req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": params})
		if err := c.WriteLine(req); err != nil {
			t.Fatal(err)
		}
		return ReadResponse(t, c)
	}
	status := func(pane string) []map[string]any {
		return []map[string]any{{"type": "pane.agent_status_changed", "pane_id": pane}}
	}
	msg := Fail(t, sub(map[string]any{"subscriptions": status(qualified)}), protocol.CodeNotSupported)
	if !strings.Contains(msg, `"machines":"all"`) {
		t.Fatalf("a remote pane without the fleet scope: %q", msg)
	}
	msg = Fail(t, sub(map[string]any{"machines": "all", "subscriptions": status("nowhere/w1:p1")}), protocol.CodeMachineNotFound)
	if !strings.Contains(msg, `"nowhere"`) || !strings.Contains(msg, "subscriptions[0].pane_id") {
		t.Fatalf("an unknown machine: %q", msg)
	}
	// The CLI's events says the same, in one line.
	if _, errOut, code := f.Local.CLI("events", "--all-machines", "--type", "pane.agent_status_changed", "--pane", "nowhere/w1:p1"); code != 1 || !strings.Contains(errOut, protocol.CodeMachineNotFound) || !SingleLine(errOut) {
		t.Fatalf("herdr events naming an unknown machine's pane: exit %d, %q", code, errOut)
	}
	msg = Fail(t, sub(map[string]any{"machines": "all", "subscriptions": []map[string]any{{"type": "pane.scroll_changed", "pane_id": qualified}}}), protocol.CodeNotSupported)
	if !strings.Contains(msg, "pane.agent_status_changed") {
		t.Fatalf("a stream a machine does not send: %q", msg)
	}
}

// agent start through this machine's server on another machine's pane
// answers like a local one: agent_started with qualified ids once the
// agent is ready there; and a program the far shell cannot find is
// agent_start_failed in that shell's words.
func TestFleet_AgentStartOnARemotePane(t *testing.T) {
	f := StartFleet(t)
	pane := AgentWorkspace(t, f.Remote)
	f.Remote.WaitPrompt(t, pane)
	out, errOut, code := f.Local.CLI("agent", "start", "reviewer", "--kind", "claude", "--pane", "build/"+pane, "--timeout", "20000")
	if code != 0 {
		t.Fatalf("agent start on build/%s: exit %d, stdout %q, stderr %q", pane, code, out, errOut)
	}
	started := OK[protocol.AgentStarted](t, CLIResponse(t, out), "agent_started")
	if started.Agent.PaneID != "build/"+pane || started.Agent.Name == nil || *started.Agent.Name != "reviewer" {
		t.Fatalf("agent_started: %+v", started.Agent)
	}
	if a := OK[protocol.AgentInfoResult](t, f.Remote.CallT(t, "agent.get", map[string]any{"target": "reviewer"}), "agent_info").Agent; a.PaneID != pane || !a.InteractiveReady {
		t.Fatalf("the remote server's agent reviewer: %+v", a)
	}

	bare := f.Remote.CreateWorkspace(t, map[string]any{"cwd": f.Remote.Home.Dir, "env": map[string]string{"PATH": Mkdir(t, f.Remote, "empty-bin") + ":/usr/bin:/bin"}}).RootPane.PaneID
	f.Remote.WaitPrompt(t, bare)
	out, errOut, code = f.Local.CLI("agent", "start", "other", "--kind", "claude", "--pane", "build/"+bare, "--timeout", "300000")
	if code != 1 || out != "" || !strings.Contains(errOut, `"code":"agent_start_failed"`) || !strings.Contains(errOut, "not found") {
		t.Fatalf("agent start of a program missing on the machine: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
