package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// The window's regions: sidebar (columns 0–23), tab bar (row 0), canvas;
// a machine's workspace shown leaves the local bar and panes no region.
func TestMouse_RegionAt(t *testing.T) {
	m, _ := viewModel(t)
	g := m.geometry()
	for _, c := range []struct {
		x, y int
		want mouseRegion
	}{
		{0, 0, regionSidebar}, {23, 10, regionSidebar}, {24, 0, regionTabBar}, {83, 0, regionTabBar},
		{24, 1, regionCanvas}, {60, 20, regionCanvas},
	} {
		if got := m.regionAt(g, c.x, c.y); got != c.want {
			t.Errorf("regionAt(%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	m.fleet.selected = "box/w1"
	if got := m.regionAt(g, 60, 5); got != regionNone {
		t.Errorf("machine shown: regionAt canvas = %v, want none", got)
	}
	if got := m.regionAt(g, 3, 5); got != regionSidebar {
		t.Errorf("machine shown: regionAt sidebar = %v, want sidebar", got)
	}
}

// A press goes to the region under the pointer, and a drag begun on a
// split's border keeps the events that follow, wherever they go.
func TestMouse_RegionDispatchAndGesture(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	g := m.geometry()
	// The split between w1:p1 and w1:p2 is at pane-area column 29/30.
	m.Update(tea.MouseMsg{X: g.area.X + 29, Y: g.area.Y + 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.drag == nil {
		t.Fatalf("a press on the split's border began no drag")
	}
	// Motion over the sidebar still belongs to the drag.
	m.Update(tea.MouseMsg{X: 2, Y: 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionMotion})
	if m.drag == nil {
		t.Fatalf("motion over the sidebar ended the drag")
	}
	m.Update(tea.MouseMsg{X: 2, Y: 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionRelease})
	if m.drag != nil {
		t.Fatalf("release did not end the drag")
	}
	// A press inside the unfocused pane selects nothing and focuses it.
	m.Update(tea.MouseMsg{X: g.area.X + 5, Y: g.area.Y + 5, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.msel != nil {
		t.Errorf("a press on an unfocused pane began a selection")
	}
}
