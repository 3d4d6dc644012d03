package cli

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestTermStream_MouseBytes: terminal.mouse is encoded for exactly what
// the pane's program asked of the mouse, SGR or X10, and dropped
// otherwise (no mouse, an event kind it did not ask for, a cell off the
// viewport or the pane); a bad action or button is an error.
func TestTermStream_MouseBytes(t *testing.T) {
	sgr := protocol.ScreenModes{Mouse: true, MouseSGR: true}
	x10 := protocol.ScreenModes{Mouse: true}
	for _, c := range []struct {
		name           string
		modes          protocol.ScreenModes
		action, button string
		col, row       int
		want, err      string
	}{
		{"no mouse", protocol.ScreenModes{}, "down", "left", 0, 0, "", ""},
		{"sgr press", sgr, "down", "left", 2, 1, "\x1b[<0;3;2M", ""},
		{"sgr release", sgr, "up", "right", 2, 1, "\x1b[<2;3;2m", ""},
		{"sgr middle", sgr, "down", "middle", 0, 0, "\x1b[<1;1;1M", ""},
		{"drag not asked", sgr, "drag", "left", 1, 1, "", ""},
		{"drag asked", protocol.ScreenModes{Mouse: true, MouseSGR: true, MouseDrag: true}, "drag", "left", 1, 1, "\x1b[<32;2;2M", ""},
		{"motion not asked", protocol.ScreenModes{Mouse: true, MouseSGR: true, MouseDrag: true}, "move", "left", 1, 1, "", ""},
		{"motion asked", protocol.ScreenModes{Mouse: true, MouseSGR: true, MouseDrag: true, MouseMotion: true}, "move", "left", 1, 1, "\x1b[<35;2;2M", ""},
		{"x10 press", x10, "down", "left", 2, 1, "\x1b[M" + string([]byte{32, 35, 34}), ""},
		{"x10 release", x10, "up", "left", 2, 1, "\x1b[M" + string([]byte{35, 35, 34}), ""},
		{"press only: no release", protocol.ScreenModes{Mouse: true, MousePressOnly: true}, "up", "left", 2, 1, "", ""},
		{"off the viewport", sgr, "down", "left", 10, 1, "", ""},
		{"off the pane", sgr, "down", "left", 1, 7, "", ""},
		{"bad action", sgr, "hover", "left", 1, 1, "", `terminal.mouse action must be down, up, drag or move, got "hover"`},
		{"bad button", sgr, "down", "fourth", 1, 1, "", `terminal.mouse button must be left, right or middle, got "fourth"`},
	} {
		s := &termStream{cv: newCanvas(10, 10), modes: c.modes, cols: 20, rows: 5}
		got, err := s.mouseBytes(c.action, c.button, c.col, c.row)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
