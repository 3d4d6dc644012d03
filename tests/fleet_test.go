//go:build unix

package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// The fleet in the server: a local server links to a saved machine (a
// second herdr server behind a real sshd), lists its agents beside its
// own, forwards qualified calls and waits, streams its events to fleet
// subscribers, and survives the machine going away and coming back.

// fleetPair is a local server with one saved, linked machine "build".
type fleetPair struct {
	local, remote *Server
	ssh           *sshRemote
	env           []string // the local CLI's environment
}

func startFleet(t *testing.T) *fleetPair {
	t.Helper()
	remoteHome := NewHome(t)
	remote := remoteHome.Start(t, "e2e")
	r := startSSHRemote(t, remoteHome)
	localHome := NewHome(t)
	localHome.Env = r.localEnv(localHome)
	if _, errOut, code := RunCLI(t, localHome.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	f := &fleetPair{local: localHome.Start(t, "e2e"), remote: remote, ssh: r, env: localHome.Env}
	f.waitState(t, protocol.MachineOnline)
	return f
}

// machine is the local server's machine.list entry of "build".
func (f *fleetPair) machine(t *testing.T) protocol.MachineInfo {
	t.Helper()
	list := OK[protocol.MachineList](t, f.local.CallT(t, "machine.list", map[string]any{}), "machine_list")
	if len(list.Machines) != 1 || list.Machines[0].Label != "build" {
		t.Fatalf("machine.list = %+v, want the one machine build", list.Machines)
	}
	return list.Machines[0]
}

func (f *fleetPair) waitState(t *testing.T, state string) protocol.MachineInfo {
	t.Helper()
	var m protocol.MachineInfo
	if !Eventually(func() bool { m = f.machine(t); return m.State == state }) {
		t.Fatalf("machine build never became %s: %+v\nlocal server:\n%s", state, m, f.local.Output())
	}
	return m
}

// fleetAgent is an entry of agent.list with "machines":"all".
type fleetAgent struct {
	Name    string               `json:"name"`
	PaneID  string               `json:"pane_id"`
	Status  string               `json:"agent_status"`
	Stale   bool                 `json:"stale"`
	Machine *protocol.MachineRef `json:"machine"`
}

func (f *fleetPair) fleetAgents(t *testing.T) []fleetAgent {
	t.Helper()
	resp := f.local.CallT(t, "agent.list", map[string]any{"machines": "all"})
	if resp.Error != nil {
		t.Fatalf("agent.list all: %+v", resp.Error)
	}
	var list struct {
		Agents []fleetAgent `json:"agents"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil {
		t.Fatal(err)
	}
	return list.Agents
}

// named returns the agents named name.
func named(agents []fleetAgent, name string) []fleetAgent {
	var out []fleetAgent
	for _, a := range agents {
		if a.Name == name {
			out = append(out, a)
		}
	}
	return out
}

// fleetEvents is a local events.subscribe with "machines":"all".
type fleetEvents struct {
	c     *protocol.Client
	lines chan string
}

func subscribeFleet(t *testing.T, s *Server, kinds ...string) *fleetEvents {
	t.Helper()
	subs := []map[string]any{}
	for _, k := range kinds {
		subs = append(subs, map[string]any{"type": k})
	}
	return subscribeFleetTo(t, s, subs)
}

// subscribeFleetTo is subscribeFleet of whole subscription entries.
func subscribeFleetTo(t *testing.T, s *Server, subs []map[string]any) *fleetEvents {
	t.Helper()
	c := s.Dial(t)
	req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"machines": "all", "subscriptions": subs}})
	if err := c.WriteLine(req); err != nil {
		t.Fatal(err)
	}
	OK[protocol.SubscriptionStarted](t, ReadResponse(t, c), "subscription_started")
	e := &fleetEvents{c: c, lines: make(chan string, 256)}
	go func() {
		defer close(e.lines)
		for {
			line, err := c.ReadLine()
			if err != nil {
				return
			}
			e.lines <- string(line)
		}
	}()
	return e
}

// next waits for an event line holding every one of want.
func (e *fleetEvents) next(t *testing.T, why string, want ...string) string {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				t.Fatalf("%s: the subscription ended", why)
			}
			all := true
			for _, w := range want {
				all = all && strings.Contains(line, w)
			}
			if all {
				return line
			}
		case <-deadline:
			t.Fatalf("%s: no event with %q", why, want)
		}
	}
}

func TestFleet_AgentsAcrossMachines_PromptWaitAndEvents(t *testing.T) {
	f := startFleet(t)
	if m := f.machine(t); m.RemoteProtocol != protocol.ProtocolVersion || m.RemoteVersion == "" || m.LastContactMS == 0 {
		t.Fatalf("machine.list lacks the remote's facts: %+v", m)
	}
	events := subscribeFleet(t, f.local, "pane_agent_status_changed")

	pane := agentWorkspace(t, f.remote)
	f.remote.WaitPrompt(t, pane)
	agentCLI(t, f.remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	qualified := "build/" + pane

	var got []fleetAgent
	if !Eventually(func() bool { got = named(f.fleetAgents(t), "alpha"); return len(got) == 1 }) {
		t.Fatalf("agent.list all never listed the remote agent alpha: %+v", f.fleetAgents(t))
	}
	if a := got[0]; a.PaneID != qualified || a.Machine == nil || a.Machine.Label != "build" || a.Stale {
		t.Fatalf("the remote agent as listed: %+v", a)
	}
	// The CLI: the fleet list, and the machine's live state.
	out, errOut, code := f.local.CLI("agent", "list", "--all-machines")
	if code != 0 || !strings.Contains(out, `"pane_id":"`+qualified+`"`) {
		t.Fatalf("agent list --all-machines: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, _, _ = f.local.CLI("machine", "list")
	if !strings.Contains(out, "online") {
		t.Fatalf("machine list does not show the live state:\n%s", out)
	}
	// The fleet snapshot: the local one, then each machine's, qualified.
	snapResp := f.local.CallT(t, "session.snapshot", map[string]any{"machines": "all"})
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
	local := OK[protocol.AgentList](t, f.local.CallT(t, "agent.list", map[string]any{}), "agent_list")
	if len(local.Agents) != 0 {
		t.Fatalf("agent.list without machines lists %+v", local.Agents)
	}

	// A program on this machine prompts and waits for the remote agent by
	// its qualified name, through the local server.
	out, errOut, code = f.local.CLI("agent", "prompt", "build/alpha", "w")
	if code != 0 {
		t.Fatalf("agent prompt build/alpha: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = f.local.CLI("agent", "wait", "build/alpha", "--until", "working", "--timeout", "10000")
	if code != 0 {
		t.Fatalf("agent wait build/alpha: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	waited := OK[protocol.AgentInfoResult](t, CLIResponse(t, out), "agent_info")
	if waited.Agent.PaneID != qualified || waited.Agent.WorkspaceID != "build/"+strings.Split(pane, ":")[0] {
		t.Fatalf("agent wait answered %+v, want the qualified ids of %s", waited.Agent, qualified)
	}
	// The remote status change reached the local fleet subscriber.
	line := events.next(t, "working on the remote", `"pane_agent_status_changed"`, `"pane_id":"`+qualified+`"`, `"working"`)
	if !strings.Contains(line, `"machine":{"id":"m-`) || !strings.Contains(line, `"label":"build"`) {
		t.Fatalf("the remote event lacks its machine: %s", line)
	}

	// Reads and input by qualified pane id.
	read := OK[protocol.PaneRead](t, f.local.CallT(t, "pane.read", map[string]any{"pane_id": qualified, "source": "recent", "lines": 20}), "pane_read")
	if !strings.Contains(read.Read.Text, "Thinking") || read.Read.PaneID != qualified {
		t.Fatalf("pane.read %s = %+v", qualified, read.Read)
	}

	// Bad input: an unknown machine, and two machines in one call.
	Fail(t, f.local.Call("pane.read", map[string]any{"pane_id": "nowhere/w1:p1", "source": "recent"}), protocol.CodeMachineNotFound)
	Fail(t, f.local.Call("pane.swap", map[string]any{"source_pane_id": "build/w1:p1", "target_pane_id": "other/w1:p1"}), protocol.CodeInvalidParams)
	Fail(t, f.local.Call("agent.list", map[string]any{"machines": "some"}), protocol.CodeInvalidParams)
	// The remote's own errors pass through.
	Fail(t, f.local.Call("pane.read", map[string]any{"pane_id": "build/w99:p1", "source": "recent"}), protocol.CodePaneNotFound)
}

func TestFleet_LostMachineStaysVisibleAndComesBackWithoutDuplicates(t *testing.T) {
	f := startFleet(t)
	pane := agentWorkspace(t, f.remote)
	f.remote.WaitPrompt(t, pane)
	agentCLI(t, f.remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	if !Eventually(func() bool { return len(named(f.fleetAgents(t), "alpha")) == 1 }) {
		t.Fatal("the remote agent was never listed")
	}
	events := subscribeFleet(t, f.local, "pane_agent_status_changed")

	f.ssh.Kill(t)
	events.next(t, "the machine going away", `"machine_state_changed"`, `"state":"offline"`, `"previous":"online"`)
	m := f.waitState(t, protocol.MachineOffline)
	if m.Error == "" || m.Agents != 1 {
		t.Fatalf("an offline machine keeps its last mirror and says why: %+v", m)
	}
	stale := named(f.fleetAgents(t), "alpha")
	if len(stale) != 1 || !stale[0].Stale {
		t.Fatalf("the lost machine's agent should be listed stale: %+v", stale)
	}
	Fail(t, f.local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineOffline)

	// While it is away its agent starts working; back online, the change
	// arrives once (the stream resumes after the last event seen).
	agentCLI(t, f.remote, "agent", "prompt", "alpha", "w")
	agentCLI(t, f.remote, "agent", "wait", "alpha", "--until", "working", "--timeout", "10000")
	f.ssh.Restart(t)
	events.next(t, "the machine coming back", `"machine_state_changed"`, `"state":"online"`)
	f.waitState(t, protocol.MachineOnline)
	events.next(t, "the change made while away", `"pane_agent_status_changed"`, `"working"`, `"pane_id":"build/`+pane+`"`)
	var back []fleetAgent
	if !Eventually(func() bool {
		back = named(f.fleetAgents(t), "alpha")
		return len(back) == 1 && !back[0].Stale && back[0].Status == "working"
	}) {
		t.Fatalf("after the machine came back alpha is listed as %+v", back)
	}
	// Nothing is delivered twice: no second working event for the pane.
	deadline := time.After(time.Second)
	for {
		select {
		case line := <-events.lines:
			if strings.Contains(line, `"pane_agent_status_changed"`) && strings.Contains(line, `"working"`) {
				t.Fatalf("the status change was delivered twice: %s", line)
			}
		case <-deadline:
			return
		}
	}
}

// A plugin's event hook on this machine runs for another machine's agent,
// with the event's machine and qualified ids, which the CLI can use as
// they come.
func TestFleet_PluginHooksSeeRemoteAgentEvents(t *testing.T) {
	f := startFleet(t)
	dir := t.TempDir()
	manifest := pluginManifest("test.fleet-hooks", "[[events]]\non = \"pane.agent_status_changed\"\n"+
		"command = [\"sh\", \"-c\", \"printf '%s|%s\\\\n' \\\"$HERDR_PANE_ID\\\" \\\"$HERDR_PLUGIN_EVENT_JSON\\\" >> \\\"$HERDR_PLUGIN_STATE_DIR/events.log\\\"\"]\n")
	sshTestFile(t, filepath.Join(dir, "herdr-plugin.toml"), manifest, 0o644)
	if out, errOut, code := f.local.CLI("plugin", "link", dir); code != 0 {
		t.Fatalf("plugin link: exit %d, %s %s", code, out, errOut)
	}
	pane := agentWorkspace(t, f.remote)
	f.remote.WaitPrompt(t, pane)
	agentCLI(t, f.remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	agentCLI(t, f.remote, "agent", "prompt", "alpha", "w")
	log := filepath.Join(f.local.Home.Dir, "s", "herdr", "plugins", "test.fleet-hooks", "events.log")
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

// The server follows machines.json: a machine disabled is let go (its
// calls refused, its state disabled), enabled again it comes back, and a
// new label qualifies its ids from then on. A machine whose far side is
// not herdr needs a person: attention, with the reason.
func TestFleet_FollowsTheProfilesAndNeedsAPersonForABadRemote(t *testing.T) {
	f := startFleet(t)
	pane := f.remote.CreateWorkspace(t, map[string]any{"label": "far"}).RootPane.PaneID
	f.remote.WaitPrompt(t, pane)

	// Qualified ids in the CLI's positional arguments, and events.wait.
	if _, errOut, code := f.local.CLI("pane", "send-text", "build/"+pane, "echo fleet-$((6*7))"); code != 0 {
		t.Fatalf("pane send-text: %s", errOut)
	}
	if _, errOut, code := f.local.CLI("pane", "send-keys", "build/"+pane, "Enter"); code != 0 {
		t.Fatalf("pane send-keys: %s", errOut)
	}
	var text string
	if !Eventually(func() bool {
		text, _, _ = f.local.CLI("pane", "read", "build/"+pane, "--lines", "20")
		return HasLine(text, "fleet-42")
	}) {
		t.Fatalf("pane read build/%s:\n%s", pane, text)
	}

	if _, errOut, code := RunCLI(t, f.env, "machine", "disable", "build"); code != 0 {
		t.Fatalf("machine disable: %s", errOut)
	}
	f.waitState(t, protocol.MachineDisabled)
	Fail(t, f.local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineOffline)
	if _, errOut, code := RunCLI(t, f.env, "machine", "enable", "build"); code != 0 {
		t.Fatalf("machine enable: %s", errOut)
	}
	f.waitState(t, protocol.MachineOnline)
	if _, errOut, code := RunCLI(t, f.env, "machine", "rename", "build", "--label", "gpu"); code != 0 {
		t.Fatalf("machine rename: %s", errOut)
	}
	var read protocol.PaneRead
	if !Eventually(func() bool {
		resp := f.local.Call("pane.read", map[string]any{"pane_id": "gpu/" + pane, "source": "recent"})
		if resp.Error != nil {
			return false
		}
		json.Unmarshal(resp.Result, &read)
		return read.Read.PaneID == "gpu/"+pane
	}) {
		t.Fatalf("after the rename the pane reads as %+v", read.Read)
	}
	Fail(t, f.local.Call("pane.read", map[string]any{"pane_id": "build/" + pane, "source": "recent"}), protocol.CodeMachineNotFound)

	// The far side stops being herdr (a profile edited by hand).
	b, err := os.ReadFile(machinesFile(f.local.Home))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"target": "build",`, `"target": "build", "remote_bin": "/bin/cat",`, 1)
	if edited == string(b) {
		t.Fatalf("machines.json has no target line to edit:\n%s", b)
	}
	sshTestFile(t, machinesFile(f.local.Home), edited, 0o600)
	var m protocol.MachineInfo
	if !Eventually(func() bool {
		list := OK[protocol.MachineList](t, f.local.CallT(t, "machine.list", map[string]any{}), "machine_list")
		m = list.Machines[0]
		return m.State == protocol.MachineAttention
	}) {
		t.Fatalf("a remote that is not herdr: %+v", m)
	}
	if !strings.Contains(m.Error, "without answering as herdr") {
		t.Fatalf("attention without its reason: %+v", m)
	}
}

// stateOf is the local server's state of the machine labelled label, ""
// while it knows none.
func (f *fleetPair) stateOf(t *testing.T, label string) string {
	t.Helper()
	for _, m := range OK[protocol.MachineList](t, f.local.CallT(t, "machine.list", map[string]any{}), "machine_list").Machines {
		if m.Label == label {
			return m.State
		}
	}
	return ""
}

// Two machines on one ssh host each have their own connection: letting
// go of the first (whose connection the second would otherwise ride on)
// leaves the second online and serving.
func TestFleet_TwoMachinesOnOneHostAreIndependent(t *testing.T) {
	f := startFleet(t)
	pane := f.remote.CreateWorkspace(t, map[string]any{"label": "far"}).RootPane.PaneID
	f.remote.WaitPrompt(t, pane)
	if _, errOut, code := RunCLI(t, f.env, "machine", "add", "build", "--label", "twin", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add twin: %s", errOut)
	}
	if !Eventually(func() bool { return f.stateOf(t, "twin") == protocol.MachineOnline }) {
		t.Fatalf("twin never came online: %s", f.stateOf(t, "twin"))
	}
	events := subscribeFleet(t, f.local, "pane_agent_status_changed")
	if _, errOut, code := RunCLI(t, f.env, "machine", "disable", "build"); code != 0 {
		t.Fatalf("machine disable build: %s", errOut)
	}
	if !Eventually(func() bool { return f.stateOf(t, "build") == protocol.MachineDisabled }) {
		t.Fatal("build was never disabled")
	}
	// twin still answers, and never went offline.
	OK[protocol.PaneRead](t, f.local.CallT(t, "pane.read", map[string]any{"pane_id": "twin/" + pane, "source": "recent"}), "pane_read")
	deadline := time.After(2 * time.Second)
	for {
		select {
		case line := <-events.lines:
			if strings.Contains(line, `"label":"twin"`) && strings.Contains(line, `"machine_state_changed"`) {
				t.Fatalf("twin changed state when build was let go: %s", line)
			}
		case <-deadline:
			if s := f.stateOf(t, "twin"); s != protocol.MachineOnline {
				t.Fatalf("twin is %s", s)
			}
			return
		}
	}
}

// A fleet subscription may name another machine's pane: its agent status
// changes arrive in the dedicated envelope, with qualified ids, and only
// that pane's (and only the status asked for). Without "machines":"all",
// naming an unknown machine, or asking for what a machine does not
// stream is refused, each saying why.
func TestFleet_SubscriptionNamesARemotePane(t *testing.T) {
	f := startFleet(t)
	pane := agentWorkspace(t, f.remote)
	other := f.remote.CreateWorkspace(t, map[string]any{"label": "other"}).RootPane.PaneID
	f.remote.WaitPrompt(t, pane)
	qualified := "build/" + pane
	// By label and by machine id, each with a status filter.
	id := f.machine(t).ID
	events := subscribeFleetTo(t, f.local, []map[string]any{
		{"type": "pane.agent_status_changed", "pane_id": qualified, "agent_status": "working"},
		{"type": "pane.agent_status_changed", "pane_id": id + "/" + other},
	})

	agentCLI(t, f.remote, "agent", "start", "alpha", "--kind", "claude", "--pane", pane, "--timeout", "10000")
	// The events are in order: the first line is the first working, the
	// next one the second working, with idle and done between them left
	// out, and nothing of the other pane or of another kind.
	working := func(why string) {
		t.Helper()
		agentCLI(t, f.remote, "agent", "prompt", "alpha", "w")
		agentCLI(t, f.remote, "agent", "wait", "alpha", "--until", "working", "--timeout", "10000")
		var line string
		select {
		case line = <-events.lines:
		case <-time.After(waitTimeout):
			t.Fatalf("%s: no event", why)
		}
		for _, want := range []string{`"event":"pane.agent_status_changed"`, `"pane_id":"` + qualified + `"`, `"agent_status":"working"`, `"workspace_id":"build/`, `"label":"build"`} {
			if !strings.Contains(line, want) {
				t.Fatalf("%s: the event lacks %s: %s", why, want, line)
			}
		}
	}
	working("the first prompt")
	agentCLI(t, f.remote, "agent", "prompt", "alpha", "i")
	agentCLI(t, f.remote, "agent", "wait", "alpha", "--until", "idle", "--until", "done", "--timeout", "10000")
	working("the second prompt")

	// A pane whose agent already has the status asked for is told at
	// once, as a local one is: the first line after the answer.
	if !Eventually(func() bool {
		a := named(f.fleetAgents(t), "alpha")
		return len(a) == 1 && a[0].Status == "working"
	}) {
		t.Fatal("the fleet never listed alpha working")
	}
	already := subscribeFleetTo(t, f.local, []map[string]any{{"type": "pane.agent_status_changed", "pane_id": qualified, "agent_status": "working"}})
	select {
	case line := <-already.lines:
		if !strings.Contains(line, `"event":"pane.agent_status_changed"`) || !strings.Contains(line, `"pane_id":"`+qualified+`"`) || !strings.Contains(line, `"agent_status":"working"`) {
			t.Fatalf("the initial line of a pane already working: %s", line)
		}
	case <-time.After(waitTimeout):
		t.Fatal("no initial line for a remote pane already working")
	}

	sub := func(params map[string]any) protocol.Response {
		c := f.local.Dial(t)
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
	if _, errOut, code := f.local.CLI("events", "--all-machines", "--type", "pane.agent_status_changed", "--pane", "nowhere/w1:p1"); code != 1 || !strings.Contains(errOut, protocol.CodeMachineNotFound) || !singleLine(errOut) {
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
	f := startFleet(t)
	pane := agentWorkspace(t, f.remote)
	f.remote.WaitPrompt(t, pane)
	out, errOut, code := f.local.CLI("agent", "start", "reviewer", "--kind", "claude", "--pane", "build/"+pane, "--timeout", "20000")
	if code != 0 {
		t.Fatalf("agent start on build/%s: exit %d, stdout %q, stderr %q", pane, code, out, errOut)
	}
	started := OK[protocol.AgentStarted](t, CLIResponse(t, out), "agent_started")
	if started.Agent.PaneID != "build/"+pane || started.Agent.Name == nil || *started.Agent.Name != "reviewer" {
		t.Fatalf("agent_started: %+v", started.Agent)
	}
	if a := OK[protocol.AgentInfoResult](t, f.remote.CallT(t, "agent.get", map[string]any{"target": "reviewer"}), "agent_info").Agent; a.PaneID != pane || !a.InteractiveReady {
		t.Fatalf("the remote server's agent reviewer: %+v", a)
	}

	bare := f.remote.CreateWorkspace(t, map[string]any{"cwd": f.remote.Home.Dir, "env": map[string]string{"PATH": mkdir(t, f.remote, "empty-bin") + ":/usr/bin:/bin"}}).RootPane.PaneID
	f.remote.WaitPrompt(t, bare)
	out, errOut, code = f.local.CLI("agent", "start", "other", "--kind", "claude", "--pane", "build/"+bare, "--timeout", "300000")
	if code != 1 || out != "" || !strings.Contains(errOut, `"code":"agent_start_failed"`) || !strings.Contains(errOut, "not found") {
		t.Fatalf("agent start of a program missing on the machine: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
