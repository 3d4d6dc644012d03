package screen

import (
	"strings"
	"testing"

	"github.com/creack/pty"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The client as a daily user finds it (issue 34), in real terminals.

// A second, smaller client takes the size; once it detaches, the first gives
// the panes its own size back at once, without a key typed.
func TestTUIDaily_SizeComesBackWhenTheSmallerClientDetaches(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "daily-size")
	a := Attach(t, h, "daily-size", h.Dir)
	a.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	b := Attach(t, h, "daily-size", h.Dir)
	b.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	if err := pty.Setsize(b.Pty, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	a.WaitText(t, "SIZE 74×29 (another client)")
	b.Type(TuiPrefix + "q") // detach
	if code := b.WaitExit(t); code != 0 {
		t.Fatalf("detach exited %d", code)
	}
	a.WaitScreen(t, "the size back without a key", func(s string) bool { return !strings.Contains(Lines(s)[0], "SIZE") })
}

// History gained while attached shows the pane's scrollbar at once, with no
// re-attach: the frames say how much history the pane keeps.
func TestTUIDaily_ScrollbarForHistoryGainedWhileAttached(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\npane_scrollbars = true\n")
	h.Start(t, "daily-scroll")
	c := Attach(t, h, "daily-scroll", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	if strings.Contains(c.Screen(), "┃") {
		t.Fatalf("a scrollbar before there is history:\n%s", c.Screen())
	}
	c.Type("seq 1 200\r")
	c.WaitText(t, "200")
	c.WaitScreen(t, "the scrollbar on the pane's right border", func(s string) bool { return strings.Contains(s, "┃") })
}
