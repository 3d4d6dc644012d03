package session

import (
	"maps"
	"testing"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/integrations"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/web"
	"github.com/herdr-go/herdr/protocol"
)

// The gateway answers these itself or routes them to the clients actor.
var gatewayMethods = func() map[string]bool {
	out := map[string]bool{"ping": true, "server.stop": true, "server.live_handoff": true}
	for m := range clients.Methods {
		out[m] = true
	}
	for m := range plugins.Methods {
		out[m] = true
	}
	maps.Copy(out, integrations.Methods)
	maps.Copy(out, web.Methods)
	return out
}()

// owner reports which of the session's tables answers a method, by the
// target kind its protocol entry declares.
func owner(m protocol.Method) (found bool) {
	switch m.Target {
	case protocol.TargetWorkspace:
		_, found = workspaceTargeted[m.Name]
	case protocol.TargetTab:
		_, found = tabRoutes[m.Name]
	case protocol.TargetPane, protocol.TargetFocusedPane:
		_, found = paneTargeted[m.Name]
	case protocol.TargetAgent:
		_, found = agentRoutes[m.Name]
	default:
		_, found = handlers[m.Name]
	}
	// The agents actor's methods: the session resolves their target.
	return found != agents.Handles(m.Name)
}

// TestHandlers_CoverMethodTable checks that every method the protocol table
// accepts has exactly one owner, routed by the target kind it declares, so
// no decoded call is left unanswered or resolved the wrong way.
func TestHandlers_CoverMethodTable(t *testing.T) {
	for _, m := range protocol.Methods() {
		if owner(m) == gatewayMethods[m.Name] {
			t.Errorf("%s (target %d): routed by session=%v, gateway=%v", m.Name, m.Target, owner(m), gatewayMethods[m.Name])
		}
		_, targeted := m.Params().(protocol.Targeted)
		if targeted != (m.Target != protocol.TargetNone) {
			t.Errorf("%s: declares target %d but its params implement Targeted=%v", m.Name, m.Target, targeted)
		}
	}
	forwardedToAgents := map[string]bool{}
	for _, m := range protocol.Methods() {
		if agents.Handles(m.Name) {
			forwardedToAgents[m.Name] = true
		}
	}
	tables := []map[string]bool{keys(handlers), keys(workspaceTargeted), keys(tabRoutes), keys(paneTargeted), keys(agentRoutes), forwardedToAgents}
	seen := map[string]int{}
	for _, table := range tables {
		for name := range table {
			seen[name]++
			if m, ok := protocol.Lookup(name); !ok || !owner(m) {
				t.Errorf("session routes %s, which the protocol table does not send there", name)
			}
		}
	}
	for name, n := range seen {
		if n > 1 {
			t.Errorf("%s is in %d tables", name, n)
		}
	}
}

func keys[H any](m map[string]H) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// Every targeted method answers its kind's not-found error for an id that
// does not exist, before its handler runs.
func TestRoute_UnknownTargets(t *testing.T) {
	h := newHarness(t)
	if r := h.call("workspace.create", `{}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	want := map[protocol.Target]string{
		protocol.TargetWorkspace:   protocol.CodeWorkspaceNotFound,
		protocol.TargetTab:         protocol.CodeTabNotFound,
		protocol.TargetPane:        protocol.CodePaneNotFound,
		protocol.TargetFocusedPane: protocol.CodePaneNotFound,
		protocol.TargetAgent:       protocol.CodeAgentNotFound,
	}
	params := map[string]string{
		"pane.read":                 `{"pane_id":"w9:p9","source":"recent"}`,
		"pane.wait_for_output":      `{"pane_id":"w9:p9","source":"recent","match":{"type":"substring","value":"x"}}`,
		"pane.send_keys":            `{"pane_id":"w9:p9","keys":["Enter"]}`,
		"pane.send_text":            `{"pane_id":"w9:p9","text":"x"}`,
		"pane.send_input":           `{"pane_id":"w9:p9","text":"x"}`,
		"pane.rename":               `{"pane_id":"w9:p9","label":"x"}`,
		"tab.rename":                `{"tab_id":"w9:t9","label":"x"}`,
		"workspace.rename":          `{"workspace_id":"w9","label":"x"}`,
		"screen.scroll":             `{"pane_id":"w9:p9","lines":1}`,
		"pane.process_info":         `{"pane_id":"w9:p9"}`,
		"workspace.report_metadata": `{"workspace_id":"w9","source":"test","tokens":{}}`,
		"agent.start":               `{"pane_id":"w9:p9","name":"x","kind":"claude"}`,
		"agent.send_keys":           `{"target":"w9:p9","keys":["Enter"]}`,
		"agent.prompt":              `{"target":"w9:p9","text":"hi"}`,
		"agent.read":                `{"target":"w9:p9","source":"recent"}`,
		"pane.record.start":         `{"pane_id":"w9:p9","path":"/tmp/x.cast"}`,
		"pane.graphics.set":         `{"pane_id":"w9:p9","format":"rgb","image_width":1,"image_height":1,"data_base64":"AAAA"}`,
	}
	for _, m := range protocol.Methods() {
		if m.Target == protocol.TargetNone {
			continue
		}
		p, ok := params[m.Name]
		if !ok {
			p = `{"pane_id":"w9:p9","tab_id":"w9:t9","workspace_id":"w9","target":"w9:p9","source":"test","agent":"claude","state":"idle"}`
		}
		r := h.call(m.Name, p)
		if r.Err == nil || protocol.AsError(r.Err).Code != want[m.Target] {
			t.Errorf("%s with an unknown target: %v, want %s", m.Name, r.Err, want[m.Target])
		}
	}
}

func TestStripSpinner(t *testing.T) {
	for in, want := range map[string]string{
		"⠋ Working on it": "Working on it",
		"✳ Claude Code":   "Claude Code",
		"plain title":     "plain title",
		"":                "",
	} {
		if got := stripSpinner(in); got != want {
			t.Errorf("stripSpinner(%q) = %q, want %q", in, got, want)
		}
	}
}
