package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/protocol"
)

func TestView_ScrolledBackMarker(t *testing.T) {
	m, lines := viewModel(t)
	if strings.Contains(lines[1], "[+") {
		t.Fatalf("marker on a pane at the bottom: %q", lines[1])
	}
	m.screens["w1:p1"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18, ViewOffset: 42})
	lines = strings.Split(ansi.Strip(render(m)), "\n")
	// Pane 1's frame spans columns 24–53: the marker ends two cells
	// before its top-right corner.
	if !strings.Contains(lines[1], "─[+42]─╮╭") {
		t.Fatalf("top border = %q, want a [+42] marker in pane 1's", lines[1])
	}
	m.screens["w1:p1"].apply(&protocol.ScreenFrame{Cols: 28, Rows: 18})
	lines = strings.Split(ansi.Strip(render(m)), "\n")
	if strings.Contains(lines[1], "[+") {
		t.Fatalf("marker left after returning to the bottom: %q", lines[1])
	}
}

func TestMouse_WheelLines(t *testing.T) {
	for _, c := range []struct {
		ev   mouseMsg
		want int
	}{
		{mouseMsg{Action: mousePress, Button: tea.MouseWheelUp}, 3},
		{mouseMsg{Action: mousePress, Button: tea.MouseWheelDown}, -3},
		{mouseMsg{Action: mousePress, Button: tea.MouseLeft}, 0},
		{mouseMsg{Action: mouseRelease, Button: tea.MouseWheelUp}, 0},
	} {
		if got := wheelLines(c.ev, 3); got != c.want {
			t.Errorf("wheelLines(%+v) = %d, want %d", c.ev, got, c.want)
		}
	}
}
