package server

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkAgentGet_200Agents: agent.get by pane id with 200 panes
// hosting agents, an answer the agents actor has rendered with the
// agent's record.
func BenchmarkAgentGet_200Agents(b *testing.B) {
	c := benchServer(b, 200, true)
	var list protocol.PaneList
	if err := c.Call("pane.list", nil, &list); err != nil || len(list.Panes) == 0 {
		b.Fatalf("pane.list: %v (%d panes)", err, len(list.Panes))
	}
	params := map[string]any{"target": list.Panes[len(list.Panes)/2].PaneID}
	for b.Loop() {
		var got protocol.AgentInfoResult
		if err := c.Call("agent.get", params, &got); err != nil {
			b.Fatal(err)
		}
		if got.Agent.Agent == nil {
			b.Fatalf("agent.get answered no agent: %+v", got.Agent)
		}
	}
}
