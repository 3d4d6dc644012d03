package session

import (
	"fmt"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// The read side routes a call to its owner as the session resolves its
// target: for every id form of every pane, workspace and tab, the pane's
// actor and current id, its terminal for the agents actor, and the
// workspace's and tab's records are the ones the session's answers give;
// an id that names nothing gets the session's error.
func TestReadSide_FindsOwnersAsTheSessionResolves(t *testing.T) {
	h, rs := newReadHarness(t)
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	h.call("pane.split", `{"direction":"right"}`)
	h.call("tab.create", `{}`)
	agentsPID, ents := actor.NewPID("local", "agents"), actor.NewPID("local", "entities")
	route := func(method, params string) kit.Routed {
		t.Helper()
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		m, _ := protocol.Lookup(method)
		call := &kit.Call{ID: "t", Method: method, Params: p}
		readSettled(t, rs, "pane.list", `{}`)
		r, ok := rs.Route(call, m, kit.Owners{Agents: agentsPID, Entities: ents})
		for !ok {
			readSettled(t, rs, "pane.list", `{}`)
			r, ok = rs.Route(call, m, kit.Owners{Agents: agentsPID, Entities: ents})
		}
		return r
	}
	snap := h.snapshot()
	checked := 0
	for _, p := range snap.Panes {
		for _, id := range []string{p.PaneID, fmt.Sprintf("p_%s", p.PaneID[len(p.WorkspaceID)+2:])} {
			got := h.call("pane.get", fmt.Sprintf(`{"pane_id":%q}`, id))
			toPane := route("pane.send_text", fmt.Sprintf(`{"pane_id":%q,"text":""}`, id))
			toAgents := route("pane.report_metadata", fmt.Sprintf(`{"pane_id":%q,"source":"t"}`, id))
			if got.Err != nil {
				if toPane.Reply == nil || encoded(toPane.Reply) != encoded(got) || toAgents.Reply == nil {
					t.Errorf("%s: the session says %v, the read side routes it to %v / %v", id, got.Err, toPane.To, toAgents.To)
				}
				continue
			}
			want := got.Result.(protocol.PaneInfoResult).Pane
			req, _ := toPane.Msg.(*pane.Request)
			if req == nil || toPane.To == nil || req.PaneID != want.PaneID || req.TabID != want.TabID || toPane.PaneID != want.PaneID {
				t.Errorf("%s: the read side routed the pane's call %+v; the session resolves it to %s", id, toPane, want.PaneID)
			}
			if a, _ := toAgents.Msg.(*agents.Request); a == nil || !toAgents.To.Equal(agentsPID) || a.TermID != want.TerminalID {
				t.Errorf("%s: the read side routed the agents' call %+v; the session resolves it to terminal %s", id, toAgents, want.TerminalID)
			}
			checked++
		}
	}
	for _, w := range snap.Workspaces {
		for _, id := range []string{w.WorkspaceID, fmt.Sprint(w.Number)} {
			want := h.call("workspace.get", fmt.Sprintf(`{"workspace_id":%q}`, id)).Result.(protocol.WorkspaceInfoResult).Workspace
			r := route("workspace.rename", fmt.Sprintf(`{"workspace_id":%q,"label":"x"}`, id))
			d, _ := r.Msg.(*entities.Deliver)
			if d == nil || !r.To.Equal(ents) || d.ID != want.WorkspaceID || fmt.Sprint(d.Msg.(*wsactor.Request).Info) != fmt.Sprint(want) {
				t.Errorf("workspace %s: the read side routed %+v, the session answers %+v", id, r, want)
			}
			checked++
		}
	}
	for _, tb := range snap.Tabs {
		r := route("tab.rename", fmt.Sprintf(`{"tab_id":%q,"label":"x"}`, tb.TabID))
		if d, _ := r.Msg.(*entities.Deliver); d == nil || d.ID != tb.TabID {
			t.Errorf("tab %s: the read side routed %+v", tb.TabID, r)
		}
		checked++
	}
	if checked < 8 {
		t.Fatalf("checked %d ids", checked)
	}
	for method, params := range map[string]string{
		"pane.send_text":   `{"pane_id":"w9:p9","text":""}`,
		"workspace.rename": `{"workspace_id":"w9","label":"x"}`,
		"tab.rename":       `{"tab_id":"w1:t9","label":"x"}`,
		"agent.rename":     `{"target":"nobody","name":"x"}`,
	} {
		want := h.call(method, params)
		if r := route(method, params); r.Reply == nil || want.Err == nil || encoded(r.Reply) != encoded(want) {
			t.Errorf("%s %s: the read side routed %+v, the session answers %s", method, params, r, encoded(want))
		}
	}
}
