package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// twoPanes is a snapshot of one workspace whose tab has two panes side by
// side in a 60×20 area, the second focused.
func twoPanes() protocol.SessionSnapshot {
	ws, tab, p2 := "w1", "w1:t1", "w1:p2"
	agent := "claude"
	return protocol.SessionSnapshot{
		FocusedWorkspaceID: &ws, FocusedTabID: &tab, FocusedPaneID: &p2,
		Workspaces: []protocol.WorkspaceInfo{
			{WorkspaceID: "w1", Number: 1, Label: "proj", Focused: true, TabCount: 1, AgentStatus: protocol.StatusBlocked},
			{WorkspaceID: "w2", Number: 2, Label: "other", TabCount: 1, AgentStatus: protocol.StatusIdle},
		},
		Tabs: []protocol.TabInfo{{TabID: tab, WorkspaceID: ws, Number: 1, Label: "1", Focused: true}},
		Panes: []protocol.PaneInfo{
			{PaneID: "w1:p1", WorkspaceID: ws, TabID: tab, AgentStatus: protocol.StatusBlocked, Agent: &agent},
			{PaneID: "w1:p2", WorkspaceID: ws, TabID: tab, Focused: true, AgentStatus: protocol.StatusUnknown},
		},
		Layouts: []protocol.PaneLayoutSnapshot{{
			WorkspaceID: ws, TabID: tab, Area: protocol.Rect{Width: 60, Height: 20}, FocusedPaneID: p2,
			Panes: []protocol.PaneLayoutPane{
				{PaneID: "w1:p1", Rect: protocol.Rect{X: 0, Y: 0, Width: 30, Height: 20}},
				{PaneID: "w1:p2", Focused: true, Rect: protocol.Rect{X: 30, Y: 0, Width: 30, Height: 20}},
			},
			Splits: []protocol.PaneLayoutSplit{{ID: "w1:t1:root", Direction: "right", Ratio: 0.5, Rect: protocol.Rect{Width: 60, Height: 20}}},
		}},
		Agents: []protocol.AgentInfo{{PaneID: "w1:p1", WorkspaceID: ws, TabID: tab, Agent: &agent, AgentStatus: protocol.StatusBlocked}},
	}
}

func viewModel(t *testing.T) (*model, []string) {
	t.Helper()
	m := newModel(&link{}, defaultKeymap(), false)
	m.term = &fakeTerm{}
	m.width, m.height = 84, 21 // sidebar 24 + 60 columns; tab bar + 20 rows
	m.ui.SidebarWidth = 24     // the layout these tests measure (Herdr's default is 26)
	m.snap, m.haveSnap = twoPanes(), true
	m.screens["w1:p1"] = &paneScreen{}
	m.screens["w1:p1"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Full: true, Lines: []protocol.ScreenLine{
		{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 6, Text: "$ echo"}, {X: 7, W: 2, Text: "hi", Style: &protocol.ScreenStyle{Fg: "1"}}}},
	}})
	m.screens["w1:p2"] = &paneScreen{}
	m.screens["w1:p2"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Full: true, Cursor: protocol.ScreenCursor{X: 2, Y: 1, Visible: true}, Lines: []protocol.ScreenLine{
		{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: 4, Text: "漢字"}}},
	}})
	if g := m.geometry(); g.sidebarW != 24 || g.area != (protocol.Rect{X: 24, Y: 1, Width: 60, Height: 20}) {
		t.Fatalf("geometry = %+v", g)
	}
	view := render(m)
	lines := strings.Split(ansi.Strip(view), "\n")
	if len(lines) != m.height {
		t.Fatalf("view has %d lines, want %d", len(lines), m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != m.width {
			t.Errorf("line %d is %d columns wide, want %d: %q", i, w, m.width, l)
		}
	}
	return m, lines
}

func TestView_Layout(t *testing.T) {
	m, lines := viewModel(t)
	checks := []struct {
		row  int
		want string
	}{
		{0, " spaces"},
		{1, " ! 1 proj"},
		{2, " ○ 2 other"},
		{11, " agents"},   // Herdr's default split: the spaces take half of 21 rows, rounded
		{12, " ! proj"},   // Herdr's default agent rows: icon, workspace, tab…
		{13, "   claude"}, // …then the agent, under the text
	}
	for _, c := range checks {
		if !strings.HasPrefix(lines[c.row], c.want) {
			t.Errorf("sidebar row %d = %q, want prefix %q", c.row, lines[c.row], c.want)
		}
	}
	// Tab bar on the first row right of the sidebar; frames below it.
	if got := []rune(lines[0])[24:29]; string(got) != " 1:1 " {
		t.Errorf("tab bar = %q", string(got))
	}
	row1 := []rune(lines[1])
	if row1[23] != '│' || row1[24] != '╭' || row1[53] != '╮' || row1[54] != '╭' || row1[83] != '╮' {
		t.Errorf("frame corners misplaced: %q", lines[1])
	}
	if !strings.Contains(lines[1], "╭ ! w1:p1 ─") || !strings.Contains(lines[1], "╭ w1:p2 ─") {
		t.Errorf("first pane's title lacks its status, or names its agent by default: %q", lines[1])
	}
	m.ui.ShowAgentLabelsOnPaneBorders = true
	if l := strings.Split(ansi.Strip(render(m)), "\n")[1]; !strings.Contains(l, "! w1:p1 claude") {
		t.Errorf("with show_agent_labels_on_pane_borders, the agent is not named: %q", l)
	}
	if !strings.HasPrefix(string([]rune(lines[2])[25:]), "$ echo hi") {
		t.Errorf("first pane's content: %q", lines[2])
	}
	if !strings.HasPrefix(string([]rune(lines[3])[55:]), "漢字") {
		t.Errorf("second pane's wide content: %q", lines[3])
	}
	if !strings.HasPrefix(lines[20], strings.Repeat(" ", 23)+"│╰") {
		t.Errorf("bottom row: %q", lines[20])
	}
}

func TestView_FocusAndCursor(t *testing.T) {
	m, _ := viewModel(t)
	c := newCanvas(m.width, m.height)
	g := m.geometry()
	m.panes.draw(c, g)
	// The focused pane's frame is highlighted, the other's is not.
	if c.cells[1*c.w+54].st != m.theme.focus || c.cells[1*c.w+24].st != m.theme.border {
		t.Errorf("frame styles: focused %+v, other %+v", c.cells[1*c.w+54].st, c.cells[1*c.w+24].st)
	}
	// The cursor (col 2, row 1 of pane 2) is the terminal's own, placed
	// there, not a drawn cell.
	if got, want := m.hostCursor(), (hostCursor{x: 24 + 30 + 1 + 2, y: 1 + 1 + 1, visible: true}); got != want {
		t.Errorf("host cursor = %+v, want %+v", got, want)
	}
	if st := c.cells[(1+1+1)*c.w+24+30+1+2].st; st.attrs&protocol.ScreenInverse != 0 {
		t.Errorf("cursor cell drawn inverse: %+v", st)
	}
	m.mode = modePrefix
	if got := m.hostCursor(); got.visible {
		t.Errorf("host cursor shown outside terminal mode: %+v", got)
	}
	m.mode = modeTerminal
	// Styled runs keep their colour.
	if st := c.cells[2*c.w+25+7].st; st.fg != pal(1) {
		t.Errorf("red run lost its colour: %+v", st)
	}
}

func TestView_ZoomShowsOnlyFocused(t *testing.T) {
	m, _ := viewModel(t)
	m.snap.Layouts[0].Zoomed = true
	if got := m.visiblePanes(); len(got) != 1 || got[0] != "w1:p2" {
		t.Fatalf("visible when zoomed = %v", got)
	}
	lines := strings.Split(ansi.Strip(render(m)), "\n")
	if strings.Count(lines[1], "╭") != 1 || []rune(lines[1])[24] != '╭' || []rune(lines[1])[83] != '╮' {
		t.Errorf("zoomed frame should fill the area: %q", lines[1])
	}
}

func TestView_HiddenSidebar(t *testing.T) {
	m, _ := viewModel(t)
	m.sidebar = false
	m.ui.SidebarCollapsedMode = "hidden"
	g := m.geometry()
	if g.sidebarW != 0 || g.area.X != 0 || g.area.Width != m.width {
		t.Fatalf("geometry without sidebar = %+v", g)
	}
	lines := strings.Split(ansi.Strip(render(m)), "\n")
	if !strings.HasPrefix(lines[0], " proj") || strings.Contains(lines[0], "spaces") {
		t.Errorf("tab bar without sidebar = %q", lines[0])
	}
}

func TestMouse_GrabSplit(t *testing.T) {
	l := twoPanes().Layouts[0]
	for _, x := range []int{29, 30} {
		d := grabSplit(l, x, 5)
		if d == nil || d.tabID != "w1:t1" || len(d.path) != 0 || d.dir != "right" {
			t.Errorf("grab at x=%d = %+v", x, d)
		}
	}
	if d := grabSplit(l, 10, 5); d != nil {
		t.Errorf("grabbed a split inside a pane: %+v", d)
	}
	tab, path, ok := splitPath("w2:t3:root.0.1")
	if !ok || tab != "w2:t3" || len(path) != 2 || path[0] || !path[1] {
		t.Errorf("splitPath = %q %v %v", tab, path, ok)
	}
}

func TestScreen_ApplyFrames(t *testing.T) {
	var s paneScreen
	s.apply(&protocol.ScreenFrame{Cols: 10, Rows: 3, Full: true, Lines: []protocol.ScreenLine{
		{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 3, Text: "one"}}},
		{Y: 1, Runs: []protocol.ScreenRun{{X: 2, W: 3, Text: "two"}}},
		{Y: 2},
	}})
	s.apply(&protocol.ScreenFrame{Cols: 10, Rows: 3, Lines: []protocol.ScreenLine{{Y: 2, Runs: []protocol.ScreenRun{{X: 0, W: 5, Text: "three"}}}}})
	if got := []string{s.text(0), s.text(1), s.text(2)}; got[0] != "one" || got[1] != "  two" || got[2] != "three" {
		t.Errorf("after a partial frame: %q", got)
	}
	s.apply(&protocol.ScreenFrame{Cols: 10, Rows: 2, Full: true, Lines: []protocol.ScreenLine{{Y: 0}, {Y: 1}}})
	if s.rows != 2 || s.text(0) != "" {
		t.Errorf("a full frame must replace everything: rows %d, %q", s.rows, s.text(0))
	}
}

func TestCanvas_SGR(t *testing.T) {
	c := newCanvas(4, 1)
	c.text(0, 0, "ab", 4, cellStyle{fg: parseColor("#ff0000"), attrs: protocol.ScreenBold})
	c.text(2, 0, "c", 4, cellStyle{bg: pal(200)})
	want := "\x1b[0;1;38;2;255;0;0mab\x1b[0;48;5;200mc\x1b[0m "
	if got := c.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// render is the frame the client would draw, as text: what tests look at
// in place of a terminal.
func render(m *model) string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return m.canvas(nil).String()
}

// fakeBarHost is the client as the tab bar sees it.
type fakeBarHost struct {
	snap   protocol.SessionSnapshot
	theme  *theme
	remote string
	sent   []string
}

func (f *fakeBarHost) snapshot() *protocol.SessionSnapshot { return &f.snap }
func (f *fakeBarHost) th() *theme                          { return f.theme }
func (f *fakeBarHost) width() int                          { return 84 }
func (f *fakeBarHost) workspaceLabel(id string) string     { return "ws-" + id }
func (f *fakeBarHost) remoteTitle() (string, bool)         { return f.remote, f.remote != "" }
func (f *fakeBarHost) send(method string, params any) {
	b, _ := json.Marshal(params)
	f.sent = append(f.sent, method+" "+string(b))
}
func (f *fakeBarHost) openTabMenu(_ mouseMsg, id string) { f.sent = append(f.sent, "menu "+id) }
func (f *fakeBarHost) focusedTabs() []protocol.TabInfo   { return f.snap.Tabs }
func (f *fakeBarHost) focusedLayout() (protocol.PaneLayoutSnapshot, bool) {
	return f.snap.Layouts[0], true
}

// The tab bar on its own: its tabs are laid out after the workspace's
// name when the sidebar is hidden, drawn with a zoom mark and the root's
// status at the right end; a hidden bar stays hidden while quiet; a
// machine's workspace shows its title instead of local tabs.
func TestTabBar_OnItsOwn(t *testing.T) {
	h := &fakeBarHost{snap: twoPanes(), theme: newTheme(config.Default(), true)}
	h.snap.Tabs = append(h.snap.Tabs, protocol.TabInfo{TabID: "w1:t2", WorkspaceID: "w1", Number: 2, Label: "logs", AgentStatus: protocol.StatusDone})
	h.snap.Layouts[0].Zoomed = true
	b := tabBar{h: h}
	g := geometry{sidebarW: 0, barY: 0, area: protocol.Rect{X: 0, Y: 1, Width: 84, Height: 20}}
	items := b.items(g)
	if len(items) != 2 || items[0].x0 != len("ws-w1")+3 || items[1].x0 != items[0].x1+1 || !strings.Contains(items[1].text, "2:logs") {
		t.Fatalf("items %+v", items)
	}
	c := newCanvas(84, 21)
	b.draw(c, g, true, " PREFIX ", h.theme.mode)
	row := strings.Split(ansi.Strip(c.String()), "\n")[0]
	if !strings.HasPrefix(row, " ws-w1") || !strings.Contains(row, " 1:1 ") || !strings.Contains(row, "ZOOM") || !strings.HasSuffix(row, " PREFIX ") {
		t.Fatalf("bar %q", row)
	}
	b.mouse(mouseMsg{X: items[1].x0, Y: 0, Action: mousePress, Button: tea.MouseLeft}, g, false)
	b.mouse(mouseMsg{X: items[0].x0, Y: 0, Action: mousePress, Button: tea.MouseRight}, g, false)
	b.mouse(mouseMsg{X: items[0].x0, Y: 0, Action: mousePress, Button: tea.MouseRight}, g, true)
	if strings.Join(h.sent, ",") != `tab.focus {"tab_id":"w1:t2"},menu w1:t1` {
		t.Fatalf("clicks sent %q", h.sent)
	}
	hidden := geometry{barY: -1, area: g.area}
	c = newCanvas(84, 21)
	b.draw(c, hidden, true, "", cellStyle{})
	if row := strings.Split(ansi.Strip(c.String()), "\n")[0]; strings.TrimSpace(row) != "" {
		t.Fatalf("a quiet hidden bar drew %q", row)
	}
	h.remote = "gpu · train"
	c = newCanvas(84, 21)
	b.draw(c, g, true, "", cellStyle{})
	if row := strings.Split(ansi.Strip(c.String()), "\n")[0]; !strings.Contains(row, " gpu · train ") || strings.Contains(row, "1:1") {
		t.Fatalf("remote bar %q", row)
	}
}

// fakePaneHost is the client as the pane view sees it: the sample
// session's layout and screens, [ui], and a mouse selection.
type fakePaneHost struct {
	snap    protocol.SessionSnapshot
	screens map[string]*paneScreen
	ui      config.UI
	theme   *theme
	sel     *mouseSel
	did     []string
}

func (f *fakePaneHost) focusedLayout() (protocol.PaneLayoutSnapshot, bool) {
	return f.snap.Layouts[0], true
}
func (f *fakePaneHost) screen(id string) *paneScreen { return f.screens[id] }
func (f *fakePaneHost) paneInfo(id string) (protocol.PaneInfo, bool) {
	for _, p := range f.snap.Panes {
		if p.PaneID == id {
			return p, true
		}
	}
	return protocol.PaneInfo{}, false
}
func (f *fakePaneHost) uiConfig() *config.UI { return &f.ui }
func (f *fakePaneHost) th() *theme           { return f.theme }
func (f *fakePaneHost) width() int           { return 84 }
func (f *fakePaneHost) height() int          { return 21 }
func (f *fakePaneHost) copyView() *copyMode  { return nil }
func (f *fakePaneHost) selection() *mouseSel { return f.sel }
func (f *fakePaneHost) send(method string, params any) {
	b, _ := json.Marshal(params)
	f.did = append(f.did, method+" "+string(b))
}
func (f *fakePaneHost) clickLink(id string, col, row int) tea.Cmd {
	f.did = append(f.did, fmt.Sprintf("link %s %d,%d", id, col, row))
	return nil
}
func (f *fakePaneHost) sendInput(id string, b []byte) {
	f.did = append(f.did, fmt.Sprintf("input %s %q", id, b))
}
func (f *fakePaneHost) selectPress(id string, x, y int) {
	f.did = append(f.did, fmt.Sprintf("select %s %d,%d", id, x, y))
}
func (f *fakePaneHost) openPaneMenu(_ mouseMsg, id string) { f.did = append(f.did, "menu "+id) }

// The pane view on its own: each pane gets a frame titled with its id and
// label (the focused one in the focus colour), its screen inside, a
// scrolled-back mark, a scrollbar when it has history, and the mouse
// selection over its cells.
func TestPaneView_OnItsOwn(t *testing.T) {
	cfg := config.Default()
	snap := twoPanes()
	label := "build"
	snap.Panes[0].Label = &label
	s1, s2 := &paneScreen{}, &paneScreen{}
	s1.apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Full: true, ViewOffset: 3, History: 40, Lines: []protocol.ScreenLine{
		{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 5, Text: "older"}}}}})
	s2.apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Full: true, Lines: []protocol.ScreenLine{
		{Y: 1, Runs: []protocol.ScreenRun{{X: 0, W: 5, Text: "hello"}}}}})
	h := &fakePaneHost{snap: snap, screens: map[string]*paneScreen{"w1:p1": s1, "w1:p2": s2}, ui: cfg.UI, theme: newTheme(cfg, true),
		sel: &mouseSel{paneID: "w1:p2", x0: 0, y0: 1, x1: 4, y1: 1}}
	h.ui.PaneScrollbars = true
	pv := paneView{h: h}
	g := geometry{sidebarW: 24, area: protocol.Rect{X: 24, Y: 1, Width: 60, Height: 20}}
	c := newCanvas(84, 21)
	pv.draw(c, g)
	lines := strings.Split(ansi.Strip(c.String()), "\n")
	if !strings.Contains(lines[1], "w1:p1 build") || !strings.Contains(lines[1], "[+3]") || !strings.Contains(lines[1], "w1:p2") {
		t.Fatalf("titles: %q", lines[1])
	}
	if !strings.Contains(lines[2], "older") || !strings.Contains(lines[3], "hello") {
		t.Fatalf("screens:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(lines[2:20], "\n"), "┃") {
		t.Fatal("no scrollbar on the pane with history")
	}
	l := snap.Layouts[0]
	var r protocol.Rect
	for _, p := range l.Panes {
		if p.PaneID == "w1:p2" {
			r = p.Rect
		}
	}
	x, y := g.area.X+r.X+1, g.area.Y+r.Y+2
	if c.cells[y*84+x].st != h.theme.selection || c.cells[y*84+x+5].st == h.theme.selection {
		t.Fatal("the selection is not drawn over its cells alone")
	}
	if c.cells[(g.area.Y+r.Y)*84+g.area.X+r.X].st != h.theme.focus {
		t.Fatal("the focused pane's frame is not in the focus colour")
	}

	// The mouse: a press in the unfocused pane focuses it; one in the
	// focused pane selects; the wheel scrolls a pane whose program did
	// not ask for the mouse; ctrl-click asks for the link; a right press
	// opens the menu; a press on the split's border drags it until the
	// release, asking for the ratio as it moves.
	at := func(x, y int, b tea.MouseButton, a mouseAction) mouseMsg {
		return mouseMsg{X: g.area.X + x, Y: g.area.Y + y, Button: b, Action: a}
	}
	pv.mouse(at(3, 3, tea.MouseLeft, mousePress), g, false)
	pv.mouse(at(r.X+3, 3, tea.MouseLeft, mousePress), g, false)
	pv.mouse(at(r.X+3, 3, tea.MouseWheelUp, mousePress), g, false)
	ctrl := at(r.X+3, 3, tea.MouseLeft, mousePress)
	ctrl.Ctrl = true
	pv.mouse(ctrl, g, false)
	pv.mouse(at(r.X+3, 3, tea.MouseRight, mousePress), g, true)
	want := []string{`pane.focus {"pane_id":"w1:p1"}`, "select w1:p2 2,2", `screen.scroll {"pane_id":"w1:p2","lines":3}`, "link w1:p2 2,2", "menu w1:p2"}
	if strings.Join(h.did, "\n") != strings.Join(want, "\n") {
		t.Fatalf("mouse did\n%s\nwant\n%s", strings.Join(h.did, "\n"), strings.Join(want, "\n"))
	}
	h.did = nil
	pv.mouse(at(r.X-1, 5, tea.MouseLeft, mousePress), g, false)
	if pv.drag == nil || !pv.dragMouse(at(r.X+4, 5, tea.MouseLeft, mouseMotion), g) || len(h.did) != 1 || !strings.HasPrefix(h.did[0], "layout.set_split_ratio") {
		t.Fatalf("split drag: %+v did %q", pv.drag, h.did)
	}
	pv.dragMouse(at(r.X+4, 5, tea.MouseLeft, mouseRelease), g)
	if pv.drag != nil || pv.dragMouse(at(1, 1, tea.MouseLeft, mouseMotion), g) {
		t.Fatal("the release did not end the drag")
	}

	// A right press over a program that asked for the mouse and right
	// clicks goes to it, and so does its release; then nothing is held.
	s2.modes = protocol.ScreenModes{Mouse: true, MouseSGR: true, RightClickPane: true}
	h.did = nil
	pv.mouse(at(r.X+3, 3, tea.MouseRight, mousePress), g, true)
	if pv.pass == nil || !pv.passMouse(at(r.X+3, 3, tea.MouseRight, mouseRelease), g) || pv.pass != nil {
		t.Fatalf("right gesture: pass %+v", pv.pass)
	}
	if strings.Join(h.did, ",") != `input w1:p2 "\x1b[<2;3;3M",input w1:p2 "\x1b[<2;3;3m"` {
		t.Fatalf("right gesture sent %q", h.did)
	}
}

// fakeTerm is an outer terminal that keeps what the client drew.
type fakeTerm struct {
	drawn []byte
	mouse []bool // each setMouse
}

func (f *fakeTerm) Write(b []byte) (int, error) {
	f.drawn = append(f.drawn, b...)
	return len(b), nil
}

func (f *fakeTerm) cellPixels() (w, h int) { return 0, 0 }

func (f *fakeTerm) setMouse(on bool) string {
	f.mouse = append(f.mouse, on)
	if on {
		return mouseOn
	}
	return mouseOff
}

// A drain draws the frame on the model's terminal, and only what changed
// the next time.
func TestModel_DrawsOnItsTerminal(t *testing.T) {
	m, _ := viewModel(t)
	term := m.term.(*fakeTerm)
	m.Update(drainMsg{})
	if !strings.Contains(ansi.Strip(string(term.drawn)), "$ echo") {
		t.Fatalf("the frame did not reach the terminal: %q", term.drawn)
	}
	full := len(term.drawn)
	m.Update(drainMsg{})
	if again := len(term.drawn) - full; again >= full {
		t.Fatalf("an unchanged frame was drawn again in full (%d bytes after %d)", again, full)
	}
}
