package machines

import (
	"encoding/json"
	"testing"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

func TestGather_MergeJoinsTheMirrorsIntoTheLocalAnswer(t *testing.T) {
	name := "local-one"
	local := protocol.AgentList{Agents: []protocol.AgentInfo{{Name: &name, PaneID: "w1:p1", AgentStatus: "idle"}}}
	build := &mirror{agents: [][]byte{[]byte(`{"name":"rev","pane_id":"build/w1:p2","machine":{"id":"m-1","label":"build"}}`)}}
	gpu := &mirror{agents: [][]byte{[]byte(`{"name":"trainer","pane_id":"gpu/w2:p1","machine":{"id":"m-2","label":"gpu"}}`)}}
	g := &gather{call: &kit.Call{Method: "agent.list"}, parts: []part{
		{ref: protocol.MachineRef{ID: "m-1", Label: "build"}, state: protocol.MachineOnline, mirror: build},
		{ref: protocol.MachineRef{ID: "m-2", Label: "gpu"}, state: protocol.MachineOffline, mirror: gpu},
		{ref: protocol.MachineRef{ID: "m-3", Label: "new"}, state: protocol.MachineConnecting},
	}}
	enc, err := g.merge(local)
	if err != nil || enc.Type != "agent_list" {
		t.Fatalf("merge: %v %q", err, enc.Type)
	}
	var got struct {
		Agents []struct {
			Name   string `json:"name"`
			PaneID string `json:"pane_id"`
			Stale  bool   `json:"stale"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(enc.JSON, &got); err != nil {
		t.Fatalf("%s: %v", enc.JSON, err)
	}
	if len(got.Agents) != 3 || got.Agents[0].PaneID != "w1:p1" || got.Agents[1].PaneID != "build/w1:p2" || got.Agents[1].Stale ||
		got.Agents[2].Name != "trainer" || !got.Agents[2].Stale {
		t.Fatalf("merged %s", enc.JSON)
	}
	if string(gpu.agents[0]) != `{"name":"trainer","pane_id":"gpu/w2:p1","machine":{"id":"m-2","label":"gpu"}}` {
		t.Fatalf("the shared mirror was written: %s", gpu.agents[0])
	}

	// No local agents and no mirrors: an empty list, not null.
	enc, _ = (&gather{call: &kit.Call{Method: "agent.list"}}).merge(protocol.AgentList{})
	if string(enc.JSON) != `{"agents":[]}` {
		t.Fatalf("empty merge %s", enc.JSON)
	}
}

func TestGather_SnapshotListsEveryMachineWithItsState(t *testing.T) {
	g := &gather{call: &kit.Call{Method: "session.snapshot"}, parts: []part{
		{ref: protocol.MachineRef{ID: "m-1", Label: "build"}, state: protocol.MachineOnline, mirror: &mirror{snapshot: []byte(`{"workspaces":[{"workspace_id":"build/w1"}]}`)}},
		{ref: protocol.MachineRef{ID: "m-2", Label: "gpu"}, state: protocol.MachineAttention},
	}}
	enc, err := g.merge(protocol.SessionSnapshotResult{})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Snapshot json.RawMessage `json:"snapshot"`
		Machines []struct {
			Machine  protocol.MachineRef `json:"machine"`
			State    string              `json:"state"`
			Stale    bool                `json:"stale"`
			Snapshot json.RawMessage     `json:"snapshot"`
		} `json:"machines"`
	}
	if err := json.Unmarshal(enc.JSON, &got); err != nil {
		t.Fatalf("%s: %v", enc.JSON, err)
	}
	if len(got.Snapshot) == 0 || len(got.Machines) != 2 || got.Machines[0].Machine.Label != "build" || got.Machines[0].Stale ||
		string(got.Machines[0].Snapshot) != `{"workspaces":[{"workspace_id":"build/w1"}]}` ||
		got.Machines[1].State != "attention" || !got.Machines[1].Stale || got.Machines[1].Snapshot != nil {
		t.Fatalf("merged %s", enc.JSON)
	}
}
