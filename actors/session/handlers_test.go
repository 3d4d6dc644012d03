package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// The session's handlers are exactly the methods the table gives it, each
// of the kind its target selects (the server runs the same check when it
// starts: actors/server/registries.go).
func TestRegistry_MatchesMethodTable(t *testing.T) {
	if err := Registry.Check(); err != nil {
		t.Fatal(err)
	}
}

// A handler of the wrong kind for its method's target is refused, naming
// the method and the registry.
func TestRegistry_RefusesAHandlerOfTheWrongKind(t *testing.T) {
	var table []protocol.Method
	for _, m := range protocol.Methods() {
		if m.Name == "pane.focus" {
			m.Target = protocol.TargetTab
		}
		table = append(table, m)
	}
	err := Registry.CheckAgainst(table)
	if err == nil {
		t.Fatal("a pane handler for a tab-targeted method passed the check")
	}
	if want := "method pane.focus: the session registry (actors/session)"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name %q", err, want)
	}
}

// Every method the session forwards after resolving its target (owners
// agents, workspace, tab, pane) has a target kind its owner's forwarder
// takes, and every targeted method's params say which entity they name.
func TestRoute_ForwardedMethodsHaveTheirOwnersTarget(t *testing.T) {
	takes := map[protocol.Owner][]protocol.Target{
		protocol.OwnerAgents:    {protocol.TargetNone, protocol.TargetPane, protocol.TargetAgent},
		protocol.OwnerWorkspace: {protocol.TargetWorkspace},
		protocol.OwnerTab:       {protocol.TargetTab},
		protocol.OwnerPane:      {protocol.TargetPane, protocol.TargetFocusedPane},
	}
	for _, m := range protocol.Methods() {
		if kinds, ok := takes[m.Owner]; ok && !slices.Contains(kinds, m.Target) {
			t.Errorf("%s: owner %s, target kind %d: the session cannot forward it", m.Name, m.Owner, m.Target)
		}
		_, targeted := m.Params().(protocol.Targeted)
		if targeted != (m.Target != protocol.TargetNone) {
			t.Errorf("%s: declares target %d but its params implement Targeted=%v", m.Name, m.Target, targeted)
		}
	}
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
		"pane.split":                `{"target_pane_id":"w9:p9","direction":"right"}`,
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
		"pane.copy_motion":          `{"pane_id":"w9:p9","cursor":{"row":0,"col":0},"motion":"line_end"}`,
		"pane.copy_search":          `{"pane_id":"w9:p9","query":"x","direction":"forward","cursor":{"row":0,"col":0},"content_revision":1}`,
	}
	for _, m := range protocol.Methods() {
		if m.Target == protocol.TargetNone || !m.Owner.ThroughSession() {
			continue // a method another actor resolves (clients: pane.edit_scrollback)
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
