package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fourAgents is one workspace of one tab with four agents in pane order
// p1..p4: working, blocked, done, idle; p3 changed state last.
func fourAgents() protocol.SessionSnapshot {
	ws, tab, p1 := "w1", "w1:t1", "w1:p1"
	s := func(v string) *string { return &v }
	snap := protocol.SessionSnapshot{
		FocusedWorkspaceID: &ws, FocusedTabID: &tab, FocusedPaneID: &p1,
		Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: ws, Number: 1, Label: "api", Focused: true, TabCount: 1, AgentStatus: protocol.StatusBlocked}},
		Tabs:       []protocol.TabInfo{{TabID: tab, WorkspaceID: ws, Number: 1, Label: "1", Focused: true}},
	}
	for i, st := range []protocol.AgentStatus{protocol.StatusWorking, protocol.StatusBlocked, protocol.StatusDone, protocol.StatusIdle} {
		id := "w1:p" + string(rune('1'+i))
		a := protocol.AgentInfo{PaneID: id, WorkspaceID: ws, TabID: tab, Agent: s([]string{"claude", "codex", "pi", "amp"}[i]), AgentStatus: st, StateChangeSeq: uint64(10 + i)}
		snap.Agents = append(snap.Agents, a)
		snap.Panes = append(snap.Panes, protocol.PaneInfo{PaneID: id, WorkspaceID: ws, TabID: tab, AgentStatus: st, Agent: a.Agent})
	}
	snap.Agents[0].DisplayAgent = s("Claude: auth")
	snap.Agents[0].StateLabels = map[string]string{"working": "refactoring auth"}
	snap.Agents[0].Tokens = map[string]string{"model": "opus"}
	return snap
}

func panelModel(t *testing.T, cfgText string) *model {
	t.Helper()
	cfg, diags, _ := config.Parse([]byte(cfgText))
	if len(diags) > 0 {
		t.Fatalf("config: %v", diags)
	}
	m := newModel(&link{}, defaultKeymap(), false)
	m.term = &fakeTerm{}
	m.clientConfig.set(cfg, true)
	m.width, m.height = 90, 24
	m.snap, m.haveSnap = fourAgents(), true
	return m
}

// sidebarText is the sidebar's rows below the agents header, as text.
func sidebarText(m *model) []string {
	var out []string
	in := false
	for _, l := range strings.Split(ansi.Strip(render(m)), "\n") {
		side, _, _ := strings.Cut(l, "│")
		side = strings.TrimRight(side, " ")
		if strings.HasPrefix(side, " agents") {
			in = true
		}
		if in && side != "" {
			out = append(out, side)
		}
	}
	return out
}

func TestPanel_TokensLabelsAndOrder(t *testing.T) {
	m := panelModel(t, `[ui]
sidebar_width = 44
sidebar_max_width = 44
[ui.sidebar.agents]
rows = [["state_icon", "agent", "state_text", "$model"]]
`)
	want := []string{
		" agents",
		" ● Claude: auth · refactoring auth · opus",
		" ! codex · blocked",
		" ✓ pi · done",
		" ○ amp · idle",
	}
	if got := sidebarText(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spaces order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// priority: blocked, done, working, idle.
	m.ui.AgentPanelSort = "priority"
	want = []string{" agents · priority", " ! codex · blocked", " ✓ pi · done", " ● Claude: auth · refactoring auth · opus", " ○ amp · idle"}
	if got := sidebarText(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("priority order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPanel_AppliesTheView(t *testing.T) {
	m := panelModel(t, `[ui]
status_indicators = "symbols"
[ui.sidebar.agents]
rows = [["state_icon", "agent"]]
`)
	label := "focus"
	// A filter only (the server's list, pane order): the policy still orders.
	m.view = protocol.AgentViewList{Active: true, Label: &label, PaneIDs: []string{"w1:p1", "w1:p2", "w1:p3"}}
	m.ui.AgentPanelSort = "priority"
	want := []string{" agents · focus", " × codex", " ✓ pi", " ◐ Claude: auth"}
	if got := sidebarText(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("filtered view:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A view that sorts replaces the policy; a pane the snapshot lacks is skipped.
	m.view = protocol.AgentViewList{Active: true, Sorted: true, PaneIDs: []string{"w1:p4", "w1:p9", "w1:p1"}}
	want = []string{" agents", " ○ amp", " ◐ Claude: auth"}
	if got := sidebarText(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sorted view:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A click on an agent's row focuses its pane.
	for _, it := range m.side.sideItems() {
		if it.kind == "agent" && it.id == "w1:p4" && !strings.Contains(it.segs[1].text, "amp") {
			t.Errorf("row of w1:p4 = %+v", it.segs)
		}
	}
}

func TestPanel_CompactRail(t *testing.T) {
	m := panelModel(t, "")
	m.sidebar = false
	if g := m.geometry(); g.sidebarW != railWidth {
		t.Fatalf("rail width = %d", g.sidebarW)
	}
	lines := strings.Split(ansi.Strip(render(m)), "\n")
	got := []string{}
	for _, l := range lines[:6] {
		got = append(got, []string(strings.Fields(strings.SplitN(l, "│", 2)[0]))...)
	}
	// The workspace, a blank row, then each agent's icon.
	if strings.Join(got, "") != "!●!✓○" {
		t.Errorf("rail = %q", got)
	}
}

func TestTheme_ColoursAndDepth(t *testing.T) {
	cfg := config.Default()
	cat := newTheme(cfg, true)
	if _, st := cat.statusIcon(protocol.StatusBlocked); st.fg != rgb(243, 139, 168) {
		t.Errorf("catppuccin red = %x", st.fg)
	}
	cfg.Theme.Name = "dracula"
	cfg.Theme.Custom = map[string]string{"red": "#ff0000"}
	dr := newTheme(cfg, true)
	if _, st := dr.statusIcon(protocol.StatusBlocked); st.fg != rgb(255, 0, 0) {
		t.Errorf("custom red = %x", st.fg)
	}
	if dr.focus.fg != rgb(189, 147, 249) {
		t.Errorf("dracula accent = %x", dr.focus.fg)
	}
	// 256 colours: the same theme, drawn from the palette.
	d256 := newTheme(cfg, false)
	if _, st := d256.statusIcon(protocol.StatusBlocked); st.fg != pal(196) {
		t.Errorf("#ff0000 in 256 colours = %x, want palette 196", st.fg)
	}
	if got := to256(rgb(30, 30, 46)); got&^0xff != colorPalette {
		t.Errorf("to256 kept a true colour: %x", got)
	}
}
