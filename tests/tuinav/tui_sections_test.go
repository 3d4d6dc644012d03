package tuinav

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// agentsRow is the row of the sidebar's agents header, or -1.
func agentsRow(screen string) int {
	for i, l := range Lines(screen) {
		side, _, _ := strings.Cut(l, "│")
		if strings.HasPrefix(strings.TrimSpace(side), "agents") {
			return i
		}
	}
	return -1
}

// borderCol is the column of the sidebar's right border on row y, or -1.
func borderCol(screen string, y int) int {
	lines := Lines(screen)
	if y >= len(lines) {
		return -1
	}
	side, _, found := strings.Cut(lines[y], "│")
	if !found {
		return -1
	}
	return len([]rune(side))
}

// Dragging the agents header moves the section split; the session keeps
// it, so a client attaching again draws the header where it was left.
func TestTUI_SectionSplitDragSurvivesReattach(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "split")
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "label": "api"})
	c := Attach(t, h, "split", h.Dir)
	screen := c.WaitScreen(t, "the sidebar", func(s string) bool { return agentsRow(s) >= 0 && strings.Contains(s, "api") })
	// Herdr's default split: the spaces take half the height.
	if y := agentsRow(screen); y != TuiRows/2 {
		t.Fatalf("agents header at row %d, want %d", y, TuiRows/2)
	}
	from, to := TuiRows/2, 10
	c.Type(SgrMouse(0, 3, from, false) + SgrMouse(32, 3, from-3, false) + SgrMouse(32, 3, to, false) + SgrMouse(0, 3, to, true))
	c.WaitScreen(t, "the agents header dragged up", func(s string) bool { return agentsRow(s) == to })
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("detach exit %d", code)
	}
	// The client sends the split as it draws it: the server may have it a
	// moment after the screen shows it.
	var st protocol.ClientUIState
	if !Eventually(func() bool {
		st = OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.get", struct{}{}), "client_ui_state")
		return st.SidebarSectionSplit != nil && *st.SidebarSectionSplit == float64(to)/TuiRows
	}) {
		t.Fatalf("the session keeps split %v, want %v", st.SidebarSectionSplit, float64(to)/TuiRows)
	}
	c2 := Attach(t, h, "split", h.Dir)
	c2.WaitScreen(t, "the header where it was left", func(s string) bool { return agentsRow(s) == to && strings.Contains(s, "api") })
}

// Dragging the sidebar's right border sets its width, within [ui]
// sidebar_max_width, and the session keeps it for the next client.
func TestTUI_SidebarBorderDragSetsWidth(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\nsidebar_max_width = 36\n")
	s := h.Start(t, "width")
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "label": "api"})
	c := Attach(t, h, "width", h.Dir)
	screen := c.WaitScreen(t, "the sidebar", func(s string) bool { return agentsRow(s) >= 0 && strings.Contains(s, "api") })
	x := borderCol(screen, 3)
	if x < 0 {
		t.Fatalf("no sidebar border on row 3")
	}
	c.Type(SgrMouse(0, x, 3, false) + SgrMouse(32, x+5, 3, false) + SgrMouse(0, x+5, 3, true))
	c.WaitScreen(t, "the border dragged right", func(s string) bool { return borderCol(s, 3) == x+5 })
	c.Type(SgrMouse(0, x+5, 3, false) + SgrMouse(32, x+40, 3, false) + SgrMouse(0, x+40, 3, true))
	c.WaitScreen(t, "the border held at the maximum", func(s string) bool { return borderCol(s, 3) == 35 })
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("detach exit %d", code)
	}
	var st protocol.ClientUIState
	if !Eventually(func() bool { // sent as drawn: see the split's test
		st = OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.get", struct{}{}), "client_ui_state")
		return st.SidebarWidth != nil && *st.SidebarWidth == 36
	}) {
		t.Fatalf("the session keeps width %v, want 36", st.SidebarWidth)
	}
	c2 := Attach(t, h, "width", h.Dir)
	c2.WaitScreen(t, "the width kept", func(s string) bool { return borderCol(s, 3) == 35 && strings.Contains(s, "api") })
}
