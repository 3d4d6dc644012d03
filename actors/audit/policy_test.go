package audit

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// twoSpaces is a View of w1 (labelled api, its pane running an agent
// named rev, focused) and w2.
func twoSpaces() *view.View {
	name := "rev"
	v := &view.View{
		Spaces: []view.Space{
			{Info: protocol.WorkspaceInfo{WorkspaceID: "w1", Label: "api"}, FirstTab: 0, TabEnd: 1, FirstPane: 0, PaneEnd: 1},
			{Info: protocol.WorkspaceInfo{WorkspaceID: "w2", Label: "docs"}, FirstTab: 1, TabEnd: 2, FirstPane: 1, PaneEnd: 2},
		},
		Tabs: []view.Tab{
			{Info: protocol.TabInfo{TabID: "w1:t1", WorkspaceID: "w1"}, FirstPane: 0, PaneEnd: 1},
			{Info: protocol.TabInfo{TabID: "w2:t1", WorkspaceID: "w2"}, FirstPane: 1, PaneEnd: 2},
		},
		FocusedPane: 0, FocusedWS: "w1", FocusedTab: "w1:t1",
		Raw: []uint64{1, 2},
	}
	v.Panes = make([]atomic.Pointer[view.Pane], 2)
	v.Panes[0].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "term_1", WorkspaceID: "w1", TabID: "w1:t1"},
		Agent: &protocol.AgentInfo{Name: &name}})
	v.Panes[1].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w2:p1", TerminalID: "term_2", WorkspaceID: "w2", TabID: "w2:t1"}})
	v.Index()
	return v
}

func decode(t *testing.T, method, raw string) (protocol.Method, protocol.Params) {
	t.Helper()
	m, ok := protocol.Lookup(method)
	if !ok {
		t.Fatalf("no method %s", method)
	}
	p, err := protocol.DecodeRouted(method, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s %s: %v", method, raw, err)
	}
	return m, p
}

// Refs finds every entity a call names, in any params key naming one,
// nested ones included, and a forwarded call's without the machine.
func TestRefs_EveryEntityAParamsNames(t *testing.T) {
	cases := []struct {
		method, params string
		want           []Ref
	}{
		{"pane.send_text", `{"pane_id":"w1:p1","text":"x"}`, []Ref{{"pane_id", KindPane, "w1:p1"}}},
		{"pane.split", `{"target_pane_id":"w2-1","direction":"right"}`, []Ref{{"target_pane_id", KindPane, "w2-1"}}},
		{"agent.prompt", `{"target":"rev","text":"go"}`, []Ref{{"target", KindAgent, "rev"}}},
		{"tab.rename", `{"tab_id":"w2:t1","label":"x"}`, []Ref{{"tab_id", KindTab, "w2:t1"}}},
		{"workspace.move_block", `{"workspace_ids":["w1","w2"]}`, []Ref{{"workspace_ids", KindWorkspace, "w1"}, {"workspace_ids", KindWorkspace, "w2"}}},
		{"events.subscribe", `{"subscriptions":[{"type":"pane.agent_status_changed","pane_id":"w2:p1"}]}`, []Ref{{"pane_id", KindPane, "w2:p1"}}},
		{"pane.read", `{"pane_id":"build/w3:p1","source":"visible"}`, []Ref{{"pane_id", KindPane, "w3:p1"}}},
		{"workspace.list", `{}`, nil},
	}
	for _, c := range cases {
		_, p := decode(t, c.method, c.params)
		got := Refs(p)
		if len(got) != len(c.want) {
			t.Errorf("%s %s: refs %+v, want %+v", c.method, c.params, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s %s: ref %d %+v, want %+v", c.method, c.params, i, got[i], c.want[i])
			}
		}
	}
}

// The locator places every id form the session resolves, agents by name
// and terminals by id, in its workspace; an unknown id is the kind's
// not-found error.
func TestViewLocator_PlacesEveryForm(t *testing.T) {
	v := twoSpaces()
	loc := ViewLocator{Newest: func() *view.View { return v }}
	for _, c := range []struct {
		kind Kind
		id   string
		ws   string
	}{
		{KindWorkspace, "w2", "w2"}, {KindWorkspace, "1", "w1"}, {KindWorkspace, "w_2", "w2"},
		{KindTab, "w2:t1", "w2"}, {KindTab, "t_w1_1", "w1"},
		{KindPane, "w2:p1", "w2"}, {KindPane, "p_2", "w2"}, {KindPane, "w1-1", "w1"},
		{KindTerminal, "term_2", "w2"}, {KindAgent, "rev", "w1"}, {KindAgent, "w2:p1", "w2"},
	} {
		at, err := loc.Locate(c.kind, c.id)
		if err != nil || at.Workspace != c.ws {
			t.Errorf("Locate(%d, %q) = %+v, %v; want workspace %s", c.kind, c.id, at, err, c.ws)
		}
	}
	for kind, code := range map[Kind]string{KindWorkspace: protocol.CodeWorkspaceNotFound, KindTab: protocol.CodeTabNotFound,
		KindPane: protocol.CodePaneNotFound, KindTerminal: protocol.CodePaneNotFound, KindAgent: protocol.CodeAgentNotFound} {
		if _, err := loc.Locate(kind, "w9:p9"); protocol.AsError(err).Code != code {
			t.Errorf("Locate(%d, w9:p9): %v, want %s", kind, err, code)
		}
	}
	if at, err := loc.Focused(""); err != nil || at.Workspace != "w1" || at.Label != "api" {
		t.Errorf("Focused: %+v %v", at, err)
	}
	if _, err := (ViewLocator{Newest: func() *view.View { return nil }}).Locate(KindPane, "w1:p1"); protocol.AsError(err).Code != protocol.CodeServerUnavailable {
		t.Errorf("before the first View: %v", err)
	}
}

// Check: read_only, method globs, workspace and machine limits, each
// refusal forbidden and naming the policy; ids that are nowhere keep
// their not-found error.
func TestCheck_Limits(t *testing.T) {
	v := twoSpaces()
	loc := ViewLocator{Newest: func() *view.View { return v }}
	reviewer := &config.Policy{Name: "reviewer", ReadOnly: true}
	panes := &config.Policy{Name: "panes", Methods: []string{"pane.*", "workspace.list"}}
	api := &config.Policy{Name: "api", Workspaces: []string{"api", "build/w3"}}
	local := &config.Policy{Name: "local", Machines: []string{config.LocalMachine}}
	cases := []struct {
		p              *config.Policy
		method, params string
		code           string // "" allowed
		says           string
	}{
		{reviewer, "pane.list", `{}`, "", ""},
		{reviewer, "pane.read", `{"pane_id":"w2:p1","source":"visible"}`, "", ""},
		{reviewer, "events.subscribe", `{"subscriptions":[{"type":"pane_created"}]}`, "", ""},
		{reviewer, "pane.send_text", `{"pane_id":"w1:p1","text":"x"}`, protocol.CodeForbidden, "read-only"},
		{reviewer, "agent.prompt", `{"target":"rev","text":"x"}`, protocol.CodeForbidden, "read-only"},
		{reviewer, "web.url", `{}`, protocol.CodeForbidden, "read-only"},
		{panes, "pane.graphics.info", `{"pane_id":"w1:p1"}`, "", ""},
		{panes, "pane.send_text", `{"pane_id":"w1:p1","text":"x"}`, "", ""},
		{panes, "workspace.create", `{}`, protocol.CodeForbidden, "not among the methods"},
		{panes, "ping", `{}`, "", ""},
		{panes, "connection.policy", `{"policy":"panes"}`, "", ""},
		{panes, "server.stop", `{}`, protocol.CodeForbidden, "not among the methods"},
		{api, "pane.send_text", `{"pane_id":"w1:p1","text":"x"}`, "", ""},
		{api, "agent.prompt", `{"target":"rev","text":"x"}`, "", ""},
		{api, "pane.send_text", `{"pane_id":"w2:p1","text":"x"}`, protocol.CodeForbidden, "workspace w2 (docs)"},
		{api, "pane.read", `{"pane_id":"p_2","source":"visible"}`, protocol.CodeForbidden, "w2"},
		{api, "events.subscribe", `{"subscriptions":[{"type":"pane.agent_status_changed","pane_id":"w2:p1"}]}`, protocol.CodeForbidden, "w2"},
		{api, "pane.send_text", `{"pane_id":"w9:p9","text":"x"}`, protocol.CodePaneNotFound, ""},
		{api, "workspace.create", `{}`, protocol.CodeForbidden, "names no workspace"},
		{api, "workspace.list", `{}`, "", ""},
		{api, "pane.split", `{"direction":"right"}`, "", ""}, // the focused pane is w1's
		{api, "pane.split", `{"workspace_id":"w2","direction":"right"}`, protocol.CodeForbidden, "w2"},
		{api, "pane.read", `{"pane_id":"build/w3:p1","source":"visible"}`, "", ""},
		{api, "pane.read", `{"pane_id":"build/w4:p1","source":"visible"}`, protocol.CodeForbidden, "build/w4"},
		{local, "pane.read", `{"pane_id":"w1:p1","source":"visible"}`, "", ""},
		{local, "pane.read", `{"pane_id":"build/w1:p1","source":"visible"}`, protocol.CodeForbidden, `machine "build"`},
		{local, "agent.list", `{"machines":"all"}`, protocol.CodeForbidden, "every machine"},
	}
	for _, c := range cases {
		m, p := decode(t, c.method, c.params)
		err := Check(c.p, m, p, loc)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %s %s refused: %v", c.p.Name, c.method, c.params, err)
			}
			continue
		}
		pe := protocol.AsError(err)
		if err == nil || pe.Code != c.code || !strings.Contains(pe.Message, c.says) {
			t.Errorf("%s: %s %s: %v; want %s saying %q", c.p.Name, c.method, c.params, err, c.code, c.says)
			continue
		}
		if c.code == protocol.CodeForbidden && !strings.HasPrefix(pe.Message, "policy "+c.p.Name+": ") {
			t.Errorf("%s: refusal does not name the policy: %s", c.p.Name, pe.Message)
		}
	}
}

// Filter narrows this server's lists to the allowed workspaces (by id or
// label) and leaves other answers alone.
func TestFilter_NarrowsLists(t *testing.T) {
	v := twoSpaces()
	loc := ViewLocator{Newest: func() *view.View { return v }}
	api := &config.Policy{Name: "api", Workspaces: []string{"api"}}
	panes := Filter(api, loc, protocol.PaneList{Panes: []protocol.PaneInfo{{PaneID: "w1:p1", WorkspaceID: "w1"}, {PaneID: "w2:p1", WorkspaceID: "w2"}}}).(protocol.PaneList)
	if len(panes.Panes) != 1 || panes.Panes[0].PaneID != "w1:p1" {
		t.Fatalf("panes: %+v", panes)
	}
	w2 := "w2"
	snap := Filter(api, loc, protocol.SessionSnapshotResult{Snapshot: protocol.SessionSnapshot{FocusedWorkspaceID: &w2,
		Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: "w1"}, {WorkspaceID: "w2"}},
		Tabs:       []protocol.TabInfo{{TabID: "w1:t1", WorkspaceID: "w1"}, {TabID: "w2:t1", WorkspaceID: "w2"}},
		Layouts:    []protocol.PaneLayoutSnapshot{{TabID: "w1:t1"}, {TabID: "w2:t1"}},
		Agents:     []protocol.AgentInfo{{WorkspaceID: "w2"}}}}).(protocol.SessionSnapshotResult).Snapshot
	if len(snap.Workspaces) != 1 || len(snap.Tabs) != 1 || len(snap.Layouts) != 1 || snap.Layouts[0].TabID != "w1:t1" || len(snap.Agents) != 0 || snap.FocusedWorkspaceID != nil {
		t.Fatalf("snapshot: %+v", snap)
	}
	if got := Filter(&config.Policy{Name: "all"}, loc, protocol.PaneList{Panes: make([]protocol.PaneInfo, 2)}).(protocol.PaneList); len(got.Panes) != 2 {
		t.Fatal("a policy without a workspace limit narrowed a list")
	}
}

// BenchmarkCheck is the cost a limited connection's call pays before it
// goes anywhere: a write naming a pane, under a read-only-free policy
// limited to a workspace (the method, the refs, the View lookup).
func BenchmarkCheck(b *testing.B) {
	v := twoSpaces()
	loc := ViewLocator{Newest: func() *view.View { return v }}
	p := &config.Policy{Name: "api", Methods: []string{"pane.*"}, Workspaces: []string{"api"}}
	m, _ := protocol.Lookup("pane.send_text")
	params, err := protocol.DecodeRouted("pane.send_text", json.RawMessage(`{"pane_id":"w1:p1","text":"x"}`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(p, m, params, loc); err != nil {
			b.Fatal(err)
		}
	}
}
