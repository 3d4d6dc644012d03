package tui

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/protocol"
)

// Herdr's rule: the split's share of the height, rounded, held within
// 0.1..0.9, each section keeping three rows; under six rows, halves.
func TestSections_SpacesRows(t *testing.T) {
	for _, c := range []struct {
		height int
		split  float64
		want   int
	}{
		{21, 0.5, 11},
		{24, 0.5, 12},
		{24, 0.25, 6},
		{24, 0.01, 3},  // 0.1 of 24 rounds to 2: the spaces keep three
		{24, 0.99, 21}, // 0.9 of 24 rounds to 22: the agents keep three
		{8, 0.9, 5},
		{5, 0.9, 3}, // too short for a split: halves
		{1, 0.5, 1},
		{0, 0.5, 0},
	} {
		if got := spacesRows(c.height, c.split); got != c.want {
			t.Errorf("spacesRows(%d, %v) = %d, want %d", c.height, c.split, got, c.want)
		}
	}
}

// manySpaces is the view model with n workspaces, the focused one first.
func manySpaces(t *testing.T, n int) *model {
	t.Helper()
	m, _ := sidebarModel(t)
	m.snap.Workspaces = nil
	for i := range n {
		id := "w" + strconv.Itoa(i+1)
		m.snap.Workspaces = append(m.snap.Workspaces, protocol.WorkspaceInfo{WorkspaceID: id, Number: i + 1, Label: "s" + strconv.Itoa(i+1), Focused: i == 0, TabCount: 1})
	}
	return m
}

// rowOf is the first sidebar row whose text starts with prefix, or -1.
func rowOf(m *model, prefix string) int {
	for y, l := range strings.Split(viewText(m), "\n") {
		if strings.HasPrefix(l, prefix) {
			return y
		}
	}
	return -1
}

func spaceIDs(m *model) []string {
	var ids []string
	for _, it := range m.side.sidebarItems() {
		if it.kind == "workspace" {
			ids = append(ids, it.id)
		}
	}
	return ids
}

// The agents header is where the session's split puts it, and the spaces
// that do not fit above it are left out, not drawn over the agents.
func TestSections_SplitAppliedAndSpacesClipped(t *testing.T) {
	m := manySpaces(t, 15)
	if got := rowOf(m, " agents"); got != 11 {
		t.Errorf("agents header at row %d by default, want 11", got)
	}
	// 21 rows at 0.5: rows 1..9 list spaces, row 10 is blank.
	if got := spaceIDs(m); len(got) != 9 || got[8] != "w9" {
		t.Errorf("spaces shown = %v, want w1..w9", got)
	}
	if got := rowOf(m, " ○ 10 s10"); got != -1 {
		t.Errorf("a space that does not fit is drawn at row %d", got)
	}
	m.update(uiStateMsg{st: protocol.ClientUIState{SidebarSectionSplit: ptr(0.25)}})
	if got := rowOf(m, " agents"); got != 5 {
		t.Errorf("agents header at row %d with split 0.25, want 5", got)
	}
	if got := spaceIDs(m); len(got) != 3 {
		t.Errorf("spaces shown at split 0.25 = %v, want three", got)
	}
	m.update(uiStateMsg{st: protocol.ClientUIState{SidebarSectionSplit: ptr(0.99)}})
	if got := rowOf(m, " agents"); got != 18 {
		t.Errorf("agents header at row %d with split 0.99, want 18 (three rows kept)", got)
	}
	// Attached to a session that never set it: Herdr's default again.
	m.update(uiStateMsg{st: protocol.ClientUIState{}})
	if got := rowOf(m, " agents"); got != 11 {
		t.Errorf("agents header at row %d with no split kept, want 11", got)
	}
}

// The spaces scroll, a space a notch, within their section; the focus
// moving to a space out of sight brings it into view.
func TestSections_SpacesScroll(t *testing.T) {
	m := manySpaces(t, 15)
	wheel := func(b tea.MouseButton, y int) {
		m.mouse(mouseMsg{X: 5, Y: y, Action: mousePress, Button: b})
	}
	wheel(tea.MouseWheelDown, 3)
	if got := spaceIDs(m); len(got) != 9 || got[0] != "w2" {
		t.Errorf("after a notch down: %v, want w2 first", got)
	}
	for range 20 {
		wheel(tea.MouseWheelDown, 3)
	}
	if got := spaceIDs(m); len(got) != 9 || got[0] != "w7" || got[8] != "w15" {
		t.Errorf("scrolled to the end: %v, want w7..w15", got)
	}
	wheel(tea.MouseWheelUp, 15) // over the agents: theirs, not the spaces'
	if got := spaceIDs(m); got[0] != "w7" {
		t.Errorf("a wheel over the agents scrolled the spaces: %v", got)
	}
	wheel(tea.MouseWheelUp, 3)
	if got := spaceIDs(m); got[0] != "w6" {
		t.Errorf("after a notch up: %v, want w6 first", got)
	}
	focus := func(id string) {
		snap := m.snap
		snap.Workspaces = append([]protocol.WorkspaceInfo{}, snap.Workspaces...)
		for i := range snap.Workspaces {
			snap.Workspaces[i].Focused = snap.Workspaces[i].WorkspaceID == id
		}
		snap.FocusedWorkspaceID = &id
		m.applySnapshot(snap, m.view)
	}
	focus("w2")
	if got := spaceIDs(m); got[0] != "w2" {
		t.Errorf("focus above the view: %v, want w2 first", got)
	}
	focus("w14")
	if got := spaceIDs(m); got[8] != "w14" {
		t.Errorf("focus below the view: %v, want w14 last", got)
	}
}

func ptr[T any](v T) *T { return &v }

func viewText(m *model) string { return ansi.Strip(render(m)) }

// sidebarModel is the view model wired to a fake server that records the
// requests, its pane area already claimed.
func sidebarModel(t *testing.T) (*model, *fakeServer) {
	t.Helper()
	m, _ := viewModel(t)
	g := m.geometry()
	m.sentArea, m.lastActive = [2]int{g.area.Width, g.area.Height}, time.Now()
	f := &fakeServer{}
	conn := func() *rpcConn {
		a, b := net.Pipe()
		go f.serve(b)
		t.Cleanup(func() { a.Close(); b.Close() })
		return newRPCConn(a, nil)
	}
	m.link = &link{req: conn(), scr: conn()}
	return m, f
}

// Dragging the agents header moves it live; the session hears the new
// split once, on release, and the press is no click on the row.
func TestSections_DragDivider(t *testing.T) {
	m, f := sidebarModel(t)
	press := func(a mouseAction, x, y int) {
		m.mouse(mouseMsg{X: x, Y: y, Action: a, Button: tea.MouseLeft})
	}
	press(mousePress, 3, 11)
	press(mouseMotion, 3, 9)
	press(mouseMotion, 3, 6)
	if got := rowOf(m, " agents"); got != 6 {
		t.Errorf("agents header at row %d while dragged to 6", got)
	}
	press(mouseMotion, 3, 0) // past the top: the spaces keep three rows
	if got := rowOf(m, " agents"); got != 3 {
		t.Errorf("agents header at row %d dragged to the top, want 3", got)
	}
	press(mouseMotion, 3, 7)
	// Only the release is sent; a focus request would be the row's click.
	m.call("session.ping", nil) // a request after the drag's, were there any: the pipe keeps order
	waitFor(t, "the ping", func() bool { return len(f.requests("session.ping")) == 1 })
	if got := len(f.requests("client.ui_state.set")) + len(f.requests("workspace.focus")) + len(f.requests("pane.focus")); got != 0 {
		t.Fatalf("%d requests sent before the release", got)
	}
	press(mouseRelease, 3, 7)
	waitFor(t, "client.ui_state.set", func() bool { return len(f.requests("client.ui_state.set")) == 1 })
	var p protocol.ClientUIStateSetParams
	if err := json.Unmarshal(f.requests("client.ui_state.set")[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.SidebarSectionSplit == nil || *p.SidebarSectionSplit != 7.0/21 || p.SidebarWidth != nil || p.CollapsedSpaceKeys != nil {
		t.Errorf("client.ui_state.set %s, want the split 7/21 alone", f.requests("client.ui_state.set")[0].Params)
	}
	if got := rowOf(m, " agents"); got != 7 {
		t.Errorf("agents header at row %d after the release at 7", got)
	}
	// Motion after the release drags nothing.
	press(mouseMotion, 3, 12)
	if got := rowOf(m, " agents"); got != 7 {
		t.Errorf("agents header moved to %d after the release", got)
	}
}

// Dragging the sidebar's border sets its width within [ui]
// sidebar_min_width..sidebar_max_width, the pane area following; the
// session hears the width on release.
func TestSections_DragBorder(t *testing.T) {
	m, f := sidebarModel(t)
	m.ui.SidebarMinWidth, m.ui.SidebarMaxWidth = 20, 34
	press := func(a mouseAction, x, y int) {
		m.mouse(mouseMsg{X: x, Y: y, Action: a, Button: tea.MouseLeft})
	}
	press(mousePress, 23, 1) // the border, on the first space's row
	press(mouseMotion, 29, 1)
	if g := m.geometry(); g.sidebarW != 30 || g.area.X != 30 {
		t.Errorf("geometry while dragged to column 29: %+v", g)
	}
	press(mouseMotion, 60, 1)
	if g := m.geometry(); g.sidebarW != 34 {
		t.Errorf("sidebar %d wide dragged past the maximum, want 34", g.sidebarW)
	}
	press(mouseMotion, 2, 1)
	if g := m.geometry(); g.sidebarW != 20 {
		t.Errorf("sidebar %d wide dragged past the minimum, want 20", g.sidebarW)
	}
	press(mouseMotion, 27, 1)
	m.call("session.ping", nil)
	waitFor(t, "the ping", func() bool { return len(f.requests("session.ping")) == 1 })
	if got := len(f.requests("client.ui_state.set")) + len(f.requests("workspace.focus")); got != 0 {
		t.Fatalf("%d requests sent before the release", got)
	}
	press(mouseRelease, 27, 1)
	waitFor(t, "client.ui_state.set", func() bool { return len(f.requests("client.ui_state.set")) == 1 })
	if got := string(f.requests("client.ui_state.set")[0].Params); got != `{"sidebar_width":28}` {
		t.Errorf("client.ui_state.set %s, want the width 28", got)
	}
	// The pane area followed: the last resize claims the columns left.
	lastCols := func() int {
		reqs := f.requests("client.resize")
		if len(reqs) == 0 {
			return 0
		}
		var r protocol.ClientResizeParams
		if err := json.Unmarshal(reqs[len(reqs)-1].Params, &r); err != nil {
			t.Fatal(err)
		}
		return r.Cols
	}
	waitFor(t, "a client.resize of the pane area left", func() bool { return lastCols() == m.width-28 })
	// A press and release that do not move it tell the session nothing.
	press(mousePress, 27, 3)
	press(mouseRelease, 27, 3)
	m.call("session.ping", nil)
	waitFor(t, "the second ping", func() bool { return len(f.requests("session.ping")) == 2 })
	if got := len(f.requests("client.ui_state.set")); got != 1 {
		t.Errorf("a click on the border sent client.ui_state.set (%d in all)", got)
	}
}

// While the spaces scroll, Herdr's scrollbar runs down the section's
// last column beside them, its thumb at the scroll's place.
func TestSections_SpacesScrollbar(t *testing.T) {
	m := manySpaces(t, 15)
	thumbRows := func() (track, thumb []int) {
		c := m.canvas(nil)
		for y := range m.height {
			cell := c.cells[y*c.w+22]
			if cell.s != "▕" {
				continue
			}
			track = append(track, y)
			if cell.st.fg == m.theme.p.overlay0 {
				thumb = append(thumb, y)
			}
		}
		return track, thumb
	}
	track, thumb := thumbRows()
	if len(track) != 9 || track[0] != 1 || track[8] != 9 || len(thumb) != 5 || thumb[0] != 1 {
		t.Errorf("at the top: track %v, thumb %v; want rows 1..9, thumb 1..5", track, thumb)
	}
	m.side.scrollSpaces(20)
	if track, thumb = thumbRows(); len(track) != 9 || len(thumb) != 5 || thumb[4] != 9 {
		t.Errorf("at the end: track %v, thumb %v; want the thumb on rows 5..9", track, thumb)
	}
	m = manySpaces(t, 3)
	if track, _ = thumbRows(); len(track) != 0 {
		t.Errorf("a scrollbar for spaces that fit: rows %v", track)
	}
}
