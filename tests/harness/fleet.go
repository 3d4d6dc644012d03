//go:build unix

package harness

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// FleetPair is a local server with one saved, linked machine "build".
type FleetPair struct {
	Local, Remote *Server
	Ssh           *sshRemote
	Env           []string // the local CLI's environment
}

func StartFleet(t *testing.T) *FleetPair {
	t.Helper()
	remoteHome := NewHome(t)
	remote := remoteHome.Start(t, "e2e")
	r := StartSSHRemote(t, remoteHome)
	localHome := NewHome(t)
	localHome.Env = r.LocalEnv(localHome)
	if _, errOut, code := RunCLI(t, localHome.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	f := &FleetPair{Local: localHome.Start(t, "e2e"), Remote: remote, Ssh: r, Env: localHome.Env}
	f.WaitState(t, protocol.MachineOnline)
	return f
}

// Machine is the local server's machine.list entry of "build".
func (f *FleetPair) Machine(t *testing.T) protocol.MachineInfo {
	t.Helper()
	list := OK[protocol.MachineList](t, f.Local.CallT(t, "machine.list", map[string]any{}), "machine_list")
	if len(list.Machines) != 1 || list.Machines[0].Label != "build" {
		t.Fatalf("machine.list = %+v, want the one machine build", list.Machines)
	}
	return list.Machines[0]
}

func (f *FleetPair) WaitState(t *testing.T, state string) protocol.MachineInfo {
	t.Helper()
	var m protocol.MachineInfo
	if !Eventually(func() bool { m = f.Machine(t); return m.State == state }) {
		t.Fatalf("machine build never became %s: %+v\nlocal server:\n%s", state, m, f.Local.Output())
	}
	return m
}

// FleetAgent is an entry of agent.list with "machines":"all".
type FleetAgent struct {
	Name    string               `json:"name"`
	PaneID  string               `json:"pane_id"`
	Status  string               `json:"agent_status"`
	Stale   bool                 `json:"stale"`
	Machine *protocol.MachineRef `json:"machine"`
}

func (f *FleetPair) FleetAgents(t *testing.T) []FleetAgent {
	t.Helper()
	resp := f.Local.CallT(t, "agent.list", map[string]any{"machines": "all"})
	if resp.Error != nil {
		t.Fatalf("agent.list all: %+v", resp.Error)
	}
	var list struct {
		Agents []FleetAgent `json:"agents"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil {
		t.Fatal(err)
	}
	return list.Agents
}

// Named returns the agents named name.
func Named(agents []FleetAgent, name string) []FleetAgent {
	var out []FleetAgent
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
	Lines chan string
}

func SubscribeFleet(t *testing.T, s *Server, kinds ...string) *fleetEvents {
	t.Helper()
	subs := []map[string]any{}
	for _, k := range kinds {
		subs = append(subs, map[string]any{"type": k})
	}
	return SubscribeFleetTo(t, s, subs)
}

// SubscribeFleetTo is subscribeFleet of whole subscription entries.
func SubscribeFleetTo(t *testing.T, s *Server, subs []map[string]any) *fleetEvents {
	t.Helper()
	c := s.Dial(t)
	req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"machines": "all", "subscriptions": subs}})
	if err := c.WriteLine(req); err != nil {
		t.Fatal(err)
	}
	OK[protocol.SubscriptionStarted](t, ReadResponse(t, c), "subscription_started")
	e := &fleetEvents{c: c, Lines: make(chan string, 256)}
	go func() {
		defer close(e.Lines)
		for {
			line, err := c.ReadLine()
			if err != nil {
				return
			}
			e.Lines <- string(line)
		}
	}()
	return e
}

// Next waits for an event line holding every one of want.
func (e *fleetEvents) Next(t *testing.T, why string, want ...string) string {
	t.Helper()
	deadline := time.After(WaitTimeout)
	for {
		select {
		case line, ok := <-e.Lines:
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

// StateOf is the local server's state of the machine labelled label, ""
// while it knows none.
func (f *FleetPair) StateOf(t *testing.T, label string) string {
	t.Helper()
	for _, m := range OK[protocol.MachineList](t, f.Local.CallT(t, "machine.list", map[string]any{}), "machine_list").Machines {
		if m.Label == label {
			return m.State
		}
	}
	return ""
}
