package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
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
	m.Update(mouseMsg{X: g.area.X + 29, Y: g.area.Y + 5, Button: tea.MouseLeft, Action: mousePress})
	if m.panes.drag == nil {
		t.Fatalf("a press on the split's border began no drag")
	}
	// Motion over the sidebar still belongs to the drag.
	m.Update(mouseMsg{X: 2, Y: 5, Button: tea.MouseLeft, Action: mouseMotion})
	if m.panes.drag == nil {
		t.Fatalf("motion over the sidebar ended the drag")
	}
	m.Update(mouseMsg{X: 2, Y: 5, Button: tea.MouseLeft, Action: mouseRelease})
	if m.panes.drag != nil {
		t.Fatalf("release did not end the drag")
	}
	// A press inside the unfocused pane selects nothing and focuses it.
	m.Update(mouseMsg{X: g.area.X + 5, Y: g.area.Y + 5, Button: tea.MouseLeft, Action: mousePress})
	if m.msel.sel != nil {
		t.Errorf("a press on an unfocused pane began a selection")
	}
}

// fakeScreens are the panes' screens as the mouse selection sees them.
type fakeScreens map[string]*paneScreen

func (f fakeScreens) screen(paneID string) *paneScreen { return f[paneID] }

// The mouse selection on its own: a drag selects across rows in reading
// order whichever way it went, a plain click selects nothing, a second
// click on one cell takes the word and a third the line, and a press off
// the screen starts nothing.
func TestMouseSelect_OnItsOwn(t *testing.T) {
	s := &paneScreen{}
	s.apply(&protocol.ScreenFrame{Cols: 20, Rows: 3, Full: true, Lines: []protocol.ScreenLine{
		{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 11, Text: "hello world"}}},
		{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: 9, Text: "second ln"}}},
	}})
	ms := &mouseSelect{host: fakeScreens{"p": s}}
	ms.press("p", 8, 1)
	ms.motion(6, 0)
	if dragged, text := ms.release(); !dragged || text != "world\nsecond ln" {
		t.Fatalf("backward drag: %v %q", dragged, text)
	}
	ms.press("p", 2, 1)
	if _, text := ms.release(); text != "" || ms.sel != nil {
		t.Fatalf("plain click: %q %+v", text, ms.sel)
	}
	ms.press("p", 2, 1)
	if _, text := ms.release(); text != "second" {
		t.Fatalf("double click: %q", text)
	}
	ms.press("p", 2, 1)
	if _, text := ms.release(); text != "second ln" {
		t.Fatalf("triple click: %q", text)
	}
	ms.sel = nil
	ms.press("p", 25, 1)
	if ms.sel != nil || ms.motion(1, 1) {
		t.Fatal("a press off the screen started a selection")
	}
}
