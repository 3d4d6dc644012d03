package view

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// CommandContext resolves command.invoke's workspace, tab and pane from
// the View as the session did from its model: what is left out is the
// focused one, a pane named by a former id is its present self, the
// three must agree, and a selection's pane must exist.
func TestCommandContext_FromTheView(t *testing.T) {
	m := renumbered(t)
	paneOf := func(termID string) (*Pane, protocol.AgentStatus, bool) {
		p := m.Term(termID)
		return &Pane{Info: protocol.PaneInfo{PaneID: p.ID(), TerminalID: p.TermID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(),
			Cwd: protocol.Ptr("/p/" + p.ID()), AgentStatus: protocol.StatusUnknown}}, protocol.StatusUnknown, true
	}
	v := Build(m, nil, nil, 16, paneOf).View
	s := func(x string) *string { return &x }
	str := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	focused := m.FocusedPane()
	c, sel, err := v.CommandContext(&protocol.CommandInvokeParams{CommandID: "x"})
	if err != nil || sel != -1 || str(c.FocusedPaneID) != focused.ID() || str(c.WorkspaceID) != focused.WS().ID() ||
		str(c.TabID) != focused.Tab().ID() || str(c.FocusedPaneCwd) != "/p/"+focused.ID() || str(c.WorkspaceCwd) != "/" {
		t.Fatalf("nothing named: %+v sel %d err %v; want the focused %s", c, sel, err, focused.ID())
	}
	var former string
	for id := range v.Former {
		former = id
	}
	moved, _ := m.ResolvePane(former)
	c, _, err = v.CommandContext(&protocol.CommandInvokeParams{CommandID: "x", PaneID: s(former), Selection: &protocol.PaneSelectionReadParams{PaneID: former}})
	if err != nil || str(c.FocusedPaneID) != moved.ID() || str(c.WorkspaceID) != moved.WS().ID() || str(c.TabID) != moved.Tab().ID() {
		t.Fatalf("a former id %s: %+v, %v; want %s", former, c, err, moved.ID())
	}
	w := m.Workspaces()[1]
	tb := w.Tabs()[0]
	c, _, err = v.CommandContext(&protocol.CommandInvokeParams{CommandID: "x", TabID: s(tb.ID())})
	if err != nil || str(c.FocusedPaneID) != m.Term(tb.Focused()).ID() || str(c.TabID) != tb.ID() {
		t.Fatalf("a tab: %+v, %v; want its focused pane %s", c, err, m.Term(tb.Focused()).ID())
	}
	elsewhere := m.TabPanes(m.Workspaces()[0].Tabs()[0])[0]
	for _, bad := range []struct {
		prm  protocol.CommandInvokeParams
		code string
	}{
		{protocol.CommandInvokeParams{PaneID: s(elsewhere.ID()), TabID: s(tb.ID())}, protocol.CodeInvalidParams},
		{protocol.CommandInvokeParams{PaneID: s(elsewhere.ID()), WorkspaceID: s(w.ID())}, protocol.CodeInvalidParams},
		{protocol.CommandInvokeParams{Selection: &protocol.PaneSelectionReadParams{PaneID: "w9:p9"}}, protocol.CodePaneNotFound},
		{protocol.CommandInvokeParams{TabID: s("w1:9")}, protocol.CodeTabNotFound},
		{protocol.CommandInvokeParams{WorkspaceID: s("w9")}, protocol.CodeWorkspaceNotFound},
	} {
		if _, _, err := v.CommandContext(&bad.prm); protocol.AsError(err).Code != bad.code {
			t.Errorf("%+v: %v, want %s", bad.prm, err, bad.code)
		}
	}
}
