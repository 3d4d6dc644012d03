package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

func copyModel(t *testing.T, text string) *model {
	t.Helper()
	m, _ := viewModel(t)
	m.mode = modeTerminal
	m.copyLoaded(copyLoadedMsg{paneID: "w1:p2", text: text})
	if m.mode != modeCopy {
		t.Fatal("copy mode did not start")
	}
	return m
}

func typeKeys(m *model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		switch k {
		case "enter":
			cmd = m.key(tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			cmd = m.key(tea.KeyMsg{Type: tea.KeyEsc})
		default:
			cmd = m.key(keyRunes(k))
		}
	}
	return cmd
}

func TestCopy_SearchSelectCopy(t *testing.T) {
	m := copyModel(t, "first line\n漢字 wide here\nthird word line")
	// The read ends at the screen's last non-blank row (row 1 of the
	// 18-row screen), so the screen starts at line 1 and the buffer ends
	// with it; the cursor starts on the pane's cursor (2, 1).
	if len(m.copy.lines) != 19 || m.copy.top != 1 || m.copy.x != 2 || m.copy.y != 2 {
		t.Fatalf("buffer %d lines, top %d, cursor (%d,%d); want 19, 1, (2,2)", len(m.copy.lines), m.copy.top, m.copy.x, m.copy.y)
	}
	typeKeys(m, "g", "/", "wide", "enter")
	if m.copy.y != 1 || m.copy.x != 5 {
		t.Fatalf("search found (%d,%d), want (5,1) after two wide cells and a space", m.copy.x, m.copy.y)
	}
	typeKeys(m, "v", "w", "$")
	if got := m.copy.selection(); got != "wide here" {
		t.Fatalf("selection = %q", got)
	}
	typeKeys(m, "esc", "0", "k", "v", "j", "j", "w")
	if got := m.copy.selection(); got != "first line\n漢字 wide here\nthird w" {
		t.Fatalf("selection over lines = %q", got)
	}
	typeKeys(m, "y")
	if m.mode != modeTerminal || !strings.Contains(string(m.toHost), osc52("first line\n漢字 wide here\nthird w")) {
		t.Fatalf("y did not copy through OSC 52: mode %v, toHost %q", m.mode, m.toHost)
	}
}

func TestCopy_BackwardSearchWraps(t *testing.T) {
	m := copyModel(t, "aa x\nbb x\ncc")
	typeKeys(m, "g", "?", "x", "enter")
	if m.copy.y != 1 || m.copy.x != 3 {
		t.Fatalf("? from the top wrapped to (%d,%d), want (3,1)", m.copy.x, m.copy.y)
	}
	typeKeys(m, "n")
	if m.copy.y != 0 {
		t.Fatalf("n went to line %d, want 0", m.copy.y)
	}
	typeKeys(m, "N")
	if m.copy.y != 1 {
		t.Fatalf("N went to line %d, want 1", m.copy.y)
	}
}

// Mouse selection on a pane's screen: a drag, a double click on a word (also
// next to wide cells), a triple click on the line; a press on the frame
// selects nothing.
func TestMouseSel_Text(t *testing.T) {
	m, _ := viewModel(t) // w1:p2 row 1 is "漢字"
	m.screens["w1:p2"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, Lines: []protocol.ScreenLine{
		{Y: 2, Runs: []protocol.ScreenRun{{X: 0, W: 14, Text: "漢字 word-one x"}}},
	}})
	m.selectPress("w1:p2", 0, 1)
	m.selectMotion(5, 2)
	m.copyOnSelect = false
	if ok, _ := m.selectRelease(); !ok || m.mouseSelection() != "漢字\n漢字 w" {
		t.Fatalf("drag selection = %q", m.mouseSelection())
	}
	m.selectPress("w1:p2", 7, 2)
	m.selectRelease()
	m.selectPress("w1:p2", 7, 2)
	m.selectRelease()
	if got := m.mouseSelection(); got != "word-one" {
		t.Fatalf("double click = %q", got)
	}
	m.selectPress("w1:p2", 7, 2)
	m.selectRelease()
	if got := m.mouseSelection(); got != "漢字 word-one x" {
		t.Fatalf("triple click = %q", got)
	}
	m.msel = nil
	m.selectPress("w1:p2", -1, 2)
	if m.msel != nil {
		t.Fatal("a press on the frame started a selection")
	}
}
