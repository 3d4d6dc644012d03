//go:build unix

package screen

import (
	"regexp"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// A bell in a pane rings the outer terminal; the cursor shape a program
// asks for, underline styles and colours, and its OSC 52 copies reach it
// too.
func TestTUI_BellCursorShapeUnderlinesClipboard(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "wire")
	c := Attach(t, h, "wire", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	// BEL also ends OSC sequences (window titles): count the bare ones.
	osc := regexp.MustCompile("\x1b\\][^\a\x1b]*(\a|\x1b\\\\)")
	bells := func() int { return strings.Count(osc.ReplaceAllString(c.Output(), ""), "\a") }
	bellsBefore := bells()
	c.Type(`printf '\033[4:3m\033[58;2;255;0;0mwavy\033[0m \033[4 q'; sleep 0.2; printf '\a'; echo done-$((40+2))` + "\r")
	c.WaitText(t, "done-42")
	WaitFor(t, "the bell on the outer terminal", func() bool { return bells() > bellsBefore })
	WaitFor(t, "a curly red underline", func() bool {
		out := c.Output()
		return strings.Contains(out, "4:3") && strings.Contains(out, "58;2;255;0;0") && strings.Contains(out, "wavy")
	})
	WaitFor(t, "the underline cursor shape", func() bool { return strings.Contains(c.Output(), "\x1b[4 q") })

	// A program's OSC 52 copy reaches the outer terminal.
	c.Type(`printf '\033]52;c;Y29waWVk\a'; echo copied-$((40+2))` + "\r")
	c.WaitText(t, "copied-42")
	WaitFor(t, "the program's clipboard set", func() bool { return strings.Contains(c.Output(), "\x1b]52;c;Y29waWVk") })
}
