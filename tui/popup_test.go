package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// A popup floats centred over the tab area, framed with its title, with
// its screen inside; keys go to it, not to the focused pane, and it goes
// when the server says it closed.
func TestPopup_DrawnOverPanesTakesKeys(t *testing.T) {
	m, _ := viewModel(t) // tab area 60×20 at (24, 1)
	m.update(popupMsg{protocol.PopupState{Open: true, TerminalID: "term_popup_1", Title: "Board", Width: &protocol.PopupSize{Percent: 50}, Height: &protocol.PopupSize{Cells: 8}}})
	m.update(frameMsg{f: &protocol.ScreenFrame{PaneID: "term_popup_1", Cols: 27, Rows: 6, Full: true,
		Cursor: protocol.ScreenCursor{X: 3, Y: 1, Visible: true},
		Lines:  []protocol.ScreenLine{{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 11, Text: "popup-ready"}}}}}})
	lines := strings.Split(ansi.Strip(render(m)), "\n")
	// 50% of 60 is 30 wide at x 24+15; 8 high at y 1+6.
	if got := lines[7]; !strings.HasPrefix(got[len(string([]rune(got)[:39])):], "╭─ Board") {
		t.Errorf("popup top border not at (39, 7): %q", got)
	}
	if got := []rune(lines[8]); string(got[40:51]) != "popup-ready" || got[39] != '│' || got[68] != '│' {
		t.Errorf("popup row 1: %q", string(got))
	}
	if c := m.hostCursor(); c != (hostCursor{x: 43, y: 9, visible: true}) {
		t.Errorf("host cursor %+v, want the popup's at (43, 9)", c)
	}
	m.update(textKey("hi"))
	if len(m.input.pending) != 1 || m.input.pending[0].paneID != "term_popup_1" || string(m.input.pending[0].b) != "hi" {
		t.Errorf("keys went to %+v, want the popup", m.input.pending)
	}
	m.update(popupMsg{protocol.PopupState{Open: false, TerminalID: "term_popup_1"}})
	if m.popup != nil || len(m.input.pending) != 0 || strings.Contains(ansi.Strip(render(m)), "Board") {
		t.Errorf("popup still shown or its input kept after it closed")
	}
	m.update(textKey("x"))
	if len(m.input.pending) != 1 || m.input.pending[0].paneID != "w1:p2" {
		t.Errorf("after the popup keys go to %+v, want w1:p2", m.input.pending)
	}
}

// sgrSeq is the one escape sequence the canvas writes itself.
var sgrSeq = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// foreignControls lists the control characters in a rendered view other
// than the canvas's own SGR sequences and line breaks: anything else came
// from a string the server sent.
func foreignControls(view string) []string {
	var found []string
	for _, r := range sgrSeq.ReplaceAllString(view, "") {
		if r != '\n' && (r < 0x20 || r >= 0x7f && r <= 0x9f) {
			found = append(found, fmt.Sprintf("%U", r))
		}
	}
	return found
}

// A popup's title comes from whoever opened it (popup.open's title, a
// plugin pane's title): drawn on the frame, an escape sequence in it
// would act on the person's terminal (OSC 52 writes the clipboard). The
// title is drawn through protocol.Printable, so its printable part shows
// and its control characters become U+FFFD; the agent view's label, from
// agent.view.set, likewise.
func TestPopup_TitleAndViewLabelReachTheTerminalPrintable(t *testing.T) {
	const evil = "Evil\x1b]52;c;aGk=\aT\u009b2J\x7f"
	m, _ := viewModel(t)
	m.update(popupMsg{protocol.PopupState{Open: true, TerminalID: "term_popup_1", Title: evil, Width: &protocol.PopupSize{Percent: 90}, Height: &protocol.PopupSize{Cells: 8}}})
	view := render(m)
	if bad := foreignControls(view); len(bad) > 0 {
		t.Errorf("the popup title put %v on the terminal", bad)
	}
	if want := "╭─ Evil\uFFFD]52;c;aGk=\uFFFDT\uFFFD2J\uFFFD "; !strings.Contains(ansi.Strip(view), want) {
		t.Errorf("the popup frame does not show %q:\n%s", want, ansi.Strip(view))
	}

	m.update(popupMsg{protocol.PopupState{Open: false, TerminalID: "term_popup_1"}})
	m.watched = []string{"w1:p1", "w1:p2"} // already streaming: no call goes out
	m.applySnapshot(m.snap, protocol.AgentViewList{Active: true, Label: protocol.Ptr("V\x1b]0;pwned\a")})
	view = render(m)
	if bad := foreignControls(view); len(bad) > 0 {
		t.Errorf("the agent view's label put %v on the terminal", bad)
	}
	if want := "agents · V\uFFFD]0;pwned\uFFFD"; !strings.Contains(ansi.Strip(view), want) {
		t.Errorf("the agent panel does not show %q:\n%s", want, ansi.Strip(view))
	}
}

// git takes bytes past ASCII in a branch name, so a branch can hold
// U+009B (a C1 CSI); the sidebar's git marks draw it printable.
func TestGitMarks_BranchReachesTheTerminalPrintable(t *testing.T) {
	m, _ := viewModel(t)
	m.git.st = map[string]protocol.WorkspaceGitStatus{}
	m.update(gitMsg{st: protocol.WorkspaceGitStatus{WorkspaceID: "w1", Repo: true, Branch: "a\u009b2Jb"}})
	if got := m.git.st["w1"].Branch; got != "a\uFFFD2Jb" {
		t.Errorf("branch kept as %q", got)
	}
}

// The popup on its own: it takes only its terminal's frames, sits in the
// middle of the tab area it is given, draws its title and screen, puts
// the cursor there only while keys go to the terminals, and encodes for
// its program only the mouse over its terminal, once the program asked.
func TestPopupView_OnItsOwn(t *testing.T) {
	var none *popupView
	if none.frame(&protocol.ScreenFrame{PaneID: "t9"}) {
		t.Fatal("no popup took a frame")
	}
	p := &popupView{st: protocol.PopupState{Open: true, TerminalID: "t1", Title: "Board"}}
	if p.frame(&protocol.ScreenFrame{PaneID: "w1:p1"}) {
		t.Fatal("the popup took a pane's frame")
	}
	if !p.frame(&protocol.ScreenFrame{PaneID: "t1", Cols: 20, Rows: 8, Full: true, Cursor: protocol.ScreenCursor{X: 1, Y: 0, Visible: true},
		Lines: []protocol.ScreenLine{{Y: 0, Runs: []protocol.ScreenRun{{X: 0, W: 5, Text: "hello"}}}}}) {
		t.Fatal("the popup did not take its frame")
	}
	area := protocol.Rect{X: 10, Y: 1, Width: 60, Height: 20}
	outer, inner, ok := p.rects(area)
	if !ok || outer.X < area.X || outer.X+outer.Width > area.X+area.Width || inner.X != outer.X+1 || inner.Y != outer.Y+1 {
		t.Fatalf("rects %+v %+v in %+v", outer, inner, area)
	}
	c := newCanvas(80, 22)
	p.draw(c, area, newTheme(config.Default(), true))
	lines := strings.Split(ansi.Strip(c.String()), "\n")
	if !strings.Contains(lines[outer.Y], " Board ") || !strings.Contains(lines[inner.Y], "hello") {
		t.Fatalf("popup drawn:\n%s", strings.Join(lines, "\n"))
	}
	if cur := p.cursor(area, true); !cur.visible || cur.x != inner.X+1 || cur.y != inner.Y {
		t.Fatalf("cursor %+v", cur)
	}
	if p.cursor(area, false).visible {
		t.Fatal("the cursor shows while keys go elsewhere")
	}
	press := mouseMsg{X: inner.X + 2, Y: inner.Y + 1, Action: mousePress, Button: tea.MouseLeft}
	if p.mouse(press, area) != nil {
		t.Fatal("mouse sent to a program that did not ask for it")
	}
	p.screen.modes = protocol.ScreenModes{Mouse: true, MouseSGR: true}
	if got := string(p.mouse(press, area)); got != "\x1b[<0;3;2M" {
		t.Fatalf("press inside: %q", got)
	}
	if p.mouse(mouseMsg{X: outer.X, Y: outer.Y, Action: mousePress, Button: tea.MouseLeft}, area) != nil {
		t.Fatal("a press on the frame went to the program")
	}
}
