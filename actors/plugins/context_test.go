package plugins

import (
	"encoding/json"
	"testing"
)

// An event hook's context carries what its event says of the pane: the
// agent and its status for pane.agent_status_changed and
// pane.agent_detected, the pane's tab, cwd and agent for pane.created.
func TestHookContext_AgentAndStatus(t *testing.T) {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, tc := range []struct {
		data                        string
		pane, tab, cwd, agent, stat string
	}{
		{`{"type":"pane_agent_status_changed","pane_id":"w1:p2","workspace_id":"w1","agent_status":"blocked","agent":"claude"}`, "w1:p2", "", "", "claude", "blocked"},
		{`{"type":"pane_agent_detected","pane_id":"w1:p2","workspace_id":"w1","agent":"codex","released":true,"final_status":"done"}`, "w1:p2", "", "", "codex", "done"},
		{`{"type":"pane_created","pane":{"pane_id":"w1:p3","workspace_id":"w1","tab_id":"w1:t1","cwd":"/tmp/x","agent":"pi","agent_status":"idle"}}`, "w1:p3", "w1:t1", "/tmp/x", "pi", "idle"},
		{`{"type":"pane_created","pane":{"pane_id":"w1:p4","workspace_id":"w1","tab_id":"w1:t1","agent_status":"unknown"}}`, "w1:p4", "w1:t1", "", "", ""},
	} {
		c := hookContext(json.RawMessage(tc.data))
		got := []string{str(c.FocusedPaneID), str(c.TabID), str(c.FocusedPaneCwd), str(c.FocusedPaneAgent), "", str(c.WorkspaceID)}
		if c.FocusedPaneStatus != nil {
			got[4] = string(*c.FocusedPaneStatus)
		}
		want := []string{tc.pane, tc.tab, tc.cwd, tc.agent, tc.stat, "w1"}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: context %q, want %q", tc.data, got, want)
			}
		}
		if c.InvocationSource == nil || *c.InvocationSource != "event" {
			t.Fatalf("%s: invocation_source %v", tc.data, c.InvocationSource)
		}
	}
	if c := hookContext(json.RawMessage(`{"type":"tab_renamed","tab_id":"w1:t2","workspace_id":"w1","label":"logs"}`)); str(c.TabLabel) != "logs" || c.WorkspaceLabel != nil {
		t.Fatalf("tab.renamed: %+v", c)
	}
	if c := hookContext(json.RawMessage(`{"type":"workspace_renamed","workspace_id":"w1","label":"api"}`)); str(c.WorkspaceLabel) != "api" || c.TabLabel != nil {
		t.Fatalf("workspace.renamed: %+v", c)
	}
}
