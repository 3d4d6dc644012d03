//go:build unix

package natsfleet

import (
	"encoding/json"
	"slices"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// agentsAll is agent.list with "machines":"all" on s: the agents' names
// with the machine each is on ("" for s's own).
func agentsAll(t *testing.T, s *Server) map[string]FleetAgent {
	t.Helper()
	resp := s.CallT(t, "agent.list", map[string]any{"machines": "all"})
	if resp.Error != nil {
		t.Fatalf("agent.list machines=all: %+v", resp.Error)
	}
	var list struct {
		Agents []FleetAgent `json:"agents"`
	}
	if err := json.Unmarshal(resp.Result, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]FleetAgent{}
	for _, a := range list.Agents {
		out[a.Name] = a
	}
	return out
}

// Saved machines and NATS members share one id space: agent.list with
// "machines":"all" on beta lists its own agent and alpha's and gamma's,
// theirs qualified with the member's name (pane ids and the machine), and
// session.snapshot with "machines":"all" carries the members' snapshots.
func TestNATSFleet_AgentListAllCoversMembers(t *testing.T) {
	a, url := hub(t)
	b := join(t, "beta", url, "s3cret")
	c := join(t, "gamma", url, "s3cret")
	waitMembers(t, b, "alpha", "beta", "gamma")
	panes := map[string]string{}
	for name, s := range map[string]*Server{"a1": a, "b1": b, "c1": c} {
		pane := AgentWorkspace(t, s)
		AgentCLI(t, s, "agent", "start", name, "--kind", "claude", "--pane", pane, "--timeout", "10000")
		panes[name] = pane
	}
	var got map[string]FleetAgent
	if !Eventually(func() bool { got = agentsAll(t, b); return len(got) == 3 }) {
		t.Fatalf("agent.list machines=all on beta never listed a1, b1, c1: %+v", got)
	}
	for name, machine := range map[string]string{"a1": "alpha", "c1": "gamma"} {
		ag := got[name]
		if ag.Machine == nil || ag.Machine.ID != machine || ag.PaneID != machine+"/"+panes[name] {
			t.Fatalf("%s as listed on beta: %+v (machine %+v), want pane %s/%s", name, ag, ag.Machine, machine, panes[name])
		}
	}
	if own := got["b1"]; own.Machine != nil || own.PaneID != panes["b1"] {
		t.Fatalf("beta's own agent as listed: %+v", own)
	}
	// A listed member's qualified pane is a pane a call reaches.
	if resp := b.CallT(t, "pane.get", map[string]any{"pane_id": got["c1"].PaneID}); resp.Error != nil {
		t.Fatalf("pane.get %s from beta: %+v", got["c1"].PaneID, resp.Error)
	}

	resp := b.CallT(t, "session.snapshot", map[string]any{"machines": "all"})
	if resp.Error != nil {
		t.Fatalf("session.snapshot machines=all: %+v", resp.Error)
	}
	var snap struct {
		Machines []struct {
			Machine  struct{ ID string } `json:"machine"`
			State    string              `json:"state"`
			Snapshot json.RawMessage     `json:"snapshot"`
		} `json:"machines"`
	}
	if err := json.Unmarshal(resp.Result, &snap); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range snap.Machines {
		if m.State != "online" || len(m.Snapshot) < 3 {
			t.Fatalf("member %s in the snapshot: state %q, snapshot %s", m.Machine.ID, m.State, m.Snapshot)
		}
		names = append(names, m.Machine.ID)
	}
	if !slices.Equal(names, []string{"alpha", "gamma"}) {
		t.Fatalf("session.snapshot machines=all on beta: machines %v, want alpha and gamma", names)
	}
}
