package tuinav

import (
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The client's agent panel (issue 17): Herdr's rows of tokens, the agent
// view a script sets, ui.agent_panel_sort, and a click that focuses an
// agent's pane.

// waitPanel waits until the panel shows exactly want.
func waitPanel(t *testing.T, c *TUI, why string, want ...string) {
	t.Helper()
	c.WaitScreen(t, why+":\n"+strings.Join(want, "\n"), func(s string) bool {
		return strings.Join(PanelRows(s), "\n") == strings.Join(want, "\n")
	})
}

func TestTUI_PanelUnderAView(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, `[ui]
agent_panel_sort = "priority"
sidebar_width = 34
[ui.sidebar.agents]
rows = [["state_icon", "agent", "state_text"], ["$task"]]
[keys]
next_agent = "prefix+a"
`)
	s := h.Start(t, "panel")
	c := Attach(t, h, "panel", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	for _, target := range []string{"w1:p1", "w1:p2", "w1:p1"} {
		OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": target, "direction": "down"}), "pane_info")
	}
	report := func(pane, agent, state string) {
		t.Helper()
		OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": pane, "source": "panel-test", "agent": agent, "state": state}), "ok")
	}
	report("w1:p1", "claude", "working")
	report("w1:p2", "codex", "blocked")
	report("w1:p3", "pi", "idle")
	report("w1:p4", "amp", "working")
	OK[protocol.OK](t, s.Call("pane.report_metadata", map[string]any{
		"pane_id": "w1:p1", "source": "user:panel", "display_agent": "Claude: auth",
		"state_labels": map[string]string{"working": "refactoring"}, "tokens": map[string]string{"task": "fix login"},
	}), "ok")
	// priority: blocked first, then working (latest change first), then idle.
	waitPanel(t, c, "the panel by priority",
		" agents · priority",
		" ! codex · blocked",
		" ● amp · working",
		" ● Claude: auth · refactoring",
		"   fix login",
		" ○ pi · idle")

	// A view: blocked or idle agents only, labelled; its filter keeps the policy order.
	OK[protocol.AgentViewResult](t, s.Call("agent.view.set", map[string]any{
		"source": "panel-test", "label": "triage",
		"filter": map[string]any{"op": "in", "field": "status", "values": []string{"blocked", "idle"}},
	}), "agent_view")
	waitPanel(t, c, "the view", " agents · triage", " ! codex · blocked", " ○ pi · idle")
	// A view's own sort wins over the policy.
	OK[protocol.AgentViewResult](t, s.Call("agent.view.set", map[string]any{
		"source": "panel-test", "sort": []map[string]any{{"field": "agent", "order": "asc"}},
	}), "agent_view")
	waitPanel(t, c, "the view's sort",
		" agents",
		" ● amp · working",
		" ● Claude: auth · refactoring",
		"   fix login",
		" ! codex · blocked",
		" ○ pi · idle")
	// Status changes re-evaluate the view.
	report("w1:p2", "codex", "working")
	waitPanel(t, c, "codex working",
		" agents",
		" ● amp · working",
		" ● Claude: auth · refactoring",
		"   fix login",
		" ● codex · working",
		" ○ pi · idle")
	OK[protocol.AgentViewResult](t, s.Call("agent.view.clear", map[string]any{}), "agent_view")
	waitPanel(t, c, "the policy back",
		" agents · priority",
		" ● codex · working",
		" ● amp · working",
		" ● Claude: auth · refactoring",
		"   fix login",
		" ○ pi · idle")

	// A click on pi's row focuses its pane.
	screen := c.Screen()
	y := -1
	for i, l := range Lines(screen) {
		if strings.Contains(strings.SplitN(l, "│", 2)[0], "pi · idle") {
			y = i
		}
	}
	if y < 0 {
		t.Fatalf("no pi row:\n%s", screen)
	}
	c.Type(SgrMouse(0, 4, y, false) + SgrMouse(0, 4, y, true))
	WaitFor(t, "pi's pane focused", func() bool {
		snap := SessionSnapshot(t, s)
		return snap.FocusedPaneID != nil && *snap.FocusedPaneID == "w1:p3"
	})
	// next_agent walks the panel's order: from pi, the last, round to codex.
	// The client moves from the pane it knows is focused: let it hear of
	// the click's focus first (its redraw), as a person would see it.
	c.Settle(t, 300*time.Millisecond)
	c.Type(TuiPrefix + "a")
	WaitFor(t, "codex's pane focused", func() bool {
		snap := SessionSnapshot(t, s)
		return snap.FocusedPaneID != nil && *snap.FocusedPaneID == "w1:p2"
	})
}
