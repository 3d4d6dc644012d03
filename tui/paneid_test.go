package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Pane ids where a person looks: the frame title, the pane menu and
// prefix i show w1:p2, what a script addresses the pane by.
func TestPaneIDs_ShownOnFrameMenuAndPrefixI(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	screen := ansi.Strip(render(m))
	if !strings.Contains(screen, "╭ ! w1:p1 ─") || !strings.Contains(screen, "╭ w1:p2 ─") {
		t.Errorf("frame titles lack the pane ids:\n%s", screen)
	}
	m.menus.openPane(mouseMsg{X: 30, Y: 3}, "w1:p2")
	if s := ansi.Strip(render(m)); !strings.Contains(s, "╭ w1:p2 ──") || !strings.Contains(s, itemRenamePane) {
		t.Errorf("the pane menu does not name its pane:\n%s", s)
	}
	m.menus.close()
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("i"))
	if !strings.HasPrefix(m.toast.text, "pane w1:p2") {
		t.Errorf("prefix i toast = %q, want the focused pane's id", m.toast.text)
	}
}
