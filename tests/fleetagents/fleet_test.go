//go:build unix

package fleetagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The fleet in the server: a local server links to a saved machine (a
// second herdr server behind a real sshd), lists its agents beside its
// own, forwards qualified calls and waits, streams its events to fleet
// subscribers, and survives the machine going away and coming back.

func TestFleet_AgentsAcrossMachines_PromptWaitAndEvents(t *testing.T) {
	f := StartFleet(t)
	if m := f.Machine(t); m.RemoteProtocol != protocol.ProtocolVersion || m.RemoteVersion == "" || m.LastContactMS == 0 {
		t.Fatalf("machine.list lacks the remote's facts: %+v", m)
	}
	events := SubscribeFleet(t, f.Local, "pane_agent_status_changed")

	pane := AgentWorkspace(t, f.Remote)
	f.Remote.WaitPrompt(t, pane)
	AgentCLI(t, f.Remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	qualified := "build/" + pane

	var got []FleetAgent
	if !Eventually(func() bool { got = Named(f.FleetAgents(t), "alpha"); return len(got) == 1 }) {
		t.Fatalf("agent.list all never listed the remote agent alpha: %+v", f.FleetAgents(t))
	}
	if a := got[0]; a.PaneID != qualified || a.Machine == nil || a.Machine.Label != "build" || a.Stale {
		t.Fatalf("the remote agent as listed: %+v", a)
	}
	// The CLI: the fleet list, and the machine's live state.
	out, errOut, code := f.Local.CLI("agent", "list", "--all-machines")
	if code != 0 || !strings.Contains(out, `"pane_id":"`+qualified+`"`) {
		t.Fatalf("agent list --all-machines: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, _, _ = f.Local.CLI("machine", "list")
	if !strings.Contains(out, "online") {
		t.Fatalf("machine list does not show the live state:\n%s", out)
	}
	// The fleet snapshot: the local one, then each machine's, qualified.
	snapResp := f.Local.CallT(t, "session.snapshot", map[string]any{"machines": "all"})
	var snap struct {
		Snapshot struct {
			Workspaces []json.RawMessage `json:"workspaces"`
		} `json:"snapshot"`
		Machines []struct {
			Machine  protocol.MachineRef `json:"machine"`
			State    string              `json:"state"`
			Stale    bool                `json:"stale"`
			Snapshot struct {
				Workspaces []struct {
					WorkspaceID string               `json:"workspace_id"`
					Machine     *protocol.MachineRef `json:"machine"`
				} `json:"workspaces"`
			} `json:"snapshot"`
		} `json:"machines"`
	}
	if err := json.Unmarshal(snapResp.Result, &snap); err != nil || len(snap.Machines) != 1 {
		t.Fatalf("session.snapshot all: %v %s", err, snapResp.Result)
	}
	if m := snap.Machines[0]; m.Machine.Label != "build" || m.State != "online" || m.Stale || len(m.Snapshot.Workspaces) != 1 ||
		m.Snapshot.Workspaces[0].WorkspaceID != "build/"+strings.Split(pane, ":")[0] || m.Snapshot.Workspaces[0].Machine == nil {
		t.Fatalf("the machine's part of the fleet snapshot: %s", snapResp.Result)
	}
	if len(snap.Snapshot.Workspaces) != 0 {
		t.Fatalf("the local snapshot lists %d workspaces, want none", len(snap.Snapshot.Workspaces))
	}
	// Without the fleet scope the answer is the local server's alone.
	local := OK[protocol.AgentList](t, f.Local.CallT(t, "agent.list", map[string]any{}), "agent_list")
	if len(local.Agents) != 0 {
		t.Fatalf("agent.list without machines lists %+v", local.Agents)
	}

	// A program on this machine prompts and waits for the remote agent by
	// its qualified name, through the local server.
	out, errOut, code = f.Local.CLI("agent", "prompt", "build/alpha", "w")
	if code != 0 {
		t.Fatalf("agent prompt build/alpha: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = f.Local.CLI("agent", "wait", "build/alpha", "--until", "working", "--timeout", "10000")
	if code != 0 {
		t.Fatalf("agent wait build/alpha: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	waited := OK[protocol.AgentInfoResult](t, CLIResponse(t, out), "agent_info")
	if waited.Agent.PaneID != qualified || waited.Agent.WorkspaceID != "build/"+strings.Split(pane, ":")[0] {
		t.Fatalf("agent wait answered %+v, want the qualified ids of %s", waited.Agent, qualified)
	}
	// The remote status change reached the local fleet subscriber.
	line := events.Next(t, "working on the remote", `"pane_agent_status_changed"`, `"pane_id":"`+qualified+`"`, `"working"`)
	if !strings.Contains(line, `"machine":{"id":"m-`) || !strings.Contains(line, `"label":"build"`) {
		t.Fatalf("the remote event lacks its machine: %s", line)
	}

	// Reads and input by qualified pane id.
	read := OK[protocol.PaneRead](t, f.Local.CallT(t, "pane.read", map[string]any{"pane_id": qualified, "source": "recent", "lines": 20}), "pane_read")
	if !strings.Contains(read.Read.Text, "Thinking") || read.Read.PaneID != qualified {
		t.Fatalf("pane.read %s = %+v", qualified, read.Read)
	}

	// Bad input: an unknown machine, and two machines in one call.
	Fail(t, f.Local.Call("pane.read", map[string]any{"pane_id": "nowhere/w1:p1", "source": "recent"}), protocol.CodeMachineNotFound)
	Fail(t, f.Local.Call("pane.swap", map[string]any{"source_pane_id": "build/w1:p1", "target_pane_id": "other/w1:p1"}), protocol.CodeInvalidParams)
	Fail(t, f.Local.Call("agent.list", map[string]any{"machines": "some"}), protocol.CodeInvalidParams)
	// The remote's own errors pass through.
	Fail(t, f.Local.Call("pane.read", map[string]any{"pane_id": "build/w99:p1", "source": "recent"}), protocol.CodePaneNotFound)
}

// A plugin's event hook on this machine runs for another machine's agent,
// with the event's machine and qualified ids, which the CLI can use as
// they come.
func TestFleet_PluginHooksSeeRemoteAgentEvents(t *testing.T) {
	f := StartFleet(t)
	dir := t.TempDir()
	manifest := PluginManifest("test.fleet-hooks", "[[events]]\non = \"pane.agent_status_changed\"\n"+
		"command = [\"sh\", \"-c\", \"printf '%s|%s\\\\n' \\\"$HERDR_PANE_ID\\\" \\\"$HERDR_PLUGIN_EVENT_JSON\\\" >> \\\"$HERDR_PLUGIN_STATE_DIR/events.log\\\"\"]\n")
	SshTestFile(t, filepath.Join(dir, "herdr-plugin.toml"), manifest, 0o644)
	if out, errOut, code := f.Local.CLI("plugin", "link", dir); code != 0 {
		t.Fatalf("plugin link: exit %d, %s %s", code, out, errOut)
	}
	pane := AgentWorkspace(t, f.Remote)
	f.Remote.WaitPrompt(t, pane)
	AgentCLI(t, f.Remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	AgentCLI(t, f.Remote, "agent", "prompt", "alpha", "w")
	log := filepath.Join(f.Local.Home.Dir, "s", "herdr", "plugins", "test.fleet-hooks", "events.log")
	var text string
	if !Eventually(func() bool {
		b, _ := os.ReadFile(log)
		text = string(b)
		return strings.Contains(text, `"working"`)
	}) {
		t.Fatalf("the hook never saw the remote agent working; log %s:\n%s", log, text)
	}
	for _, line := range Lines(text) {
		if !strings.Contains(line, `"working"`) {
			continue
		}
		if !strings.HasPrefix(line, "build/"+pane+"|") || !strings.Contains(line, `"label":"build"`) || !strings.Contains(line, `"pane_id":"build/`+pane+`"`) {
			t.Fatalf("the hook's pane and event: %s", line)
		}
	}
}
