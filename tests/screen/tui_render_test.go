package screen

import (
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/herdr-go/herdr/emulator"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Emoji sequences printed in a pane (skin tones, keycaps, ZWJ families,
// flags, VS16) keep the pane's right border in its column.
func TestTUI_EmojiKeepTheBorder(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "emoji")
	c := Attach(t, h, "emoji", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	samples := []string{"👍🏽 skin", "1️⃣ keycap", "👨‍👩‍👧‍👦 family", "🇫🇷 flag", "⚠️ warn ℹ️ info", "漢字 wide"}
	c.Type("printf '" + strings.Join(samples, `\n`) + `\nEND-%s\n' $((6*7))` + "\r")
	screen := c.WaitText(t, "END-42")
	lines := Lines(screen)
	var top string
	for _, l := range lines {
		if strings.Contains(l, "╮") {
			top = l
			break
		}
	}
	border := CellsTo(top, strings.LastIndex(top, "╮"))
	for _, want := range samples {
		var row string
		for _, l := range lines {
			if strings.Contains(l, want) && !strings.Contains(l, "printf") {
				row = l
			}
		}
		if row == "" {
			t.Errorf("%q is not on the screen:\n%s", want, screen)
			continue
		}
		if got := CellsTo(row, strings.LastIndex(row, "│")); got != border {
			t.Errorf("row with %q has its right border at column %d, want %d:\n%q", want, got, border, row)
		}
	}
}

// The client's terminal cursor is the pane's cursor: after typed text, at
// the column after it, visible.
func TestTUI_HostCursorAtPaneCursor(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "cursor")
	c := Attach(t, h, "cursor", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("echo QZX")
	screen := c.WaitText(t, "echo QZX")
	WaitFor(t, "the cursor after the typed text", func() bool {
		screen = c.Screen()
		for y, l := range Lines(screen) {
			if i := strings.Index(l, "echo QZX"); i >= 0 {
				cur := c.Cursor()
				return cur.Visible && cur.Row == y && cur.Col == CellsTo(l, i+len("echo QZX"))
			}
		}
		return false
	})
	// No cell is drawn inverse in place of the cursor.
	c.Mu.Lock()
	ansi := c.Term.Read(emulator.ReadOptions{Source: emulator.SourceVisible, ANSI: true}).Text
	c.Mu.Unlock()
	if strings.Contains(ansi, "\x1b[7m") || strings.Contains(ansi, "\x1b[7;") || strings.Contains(ansi, ";7m") || strings.Contains(ansi, ";7;") {
		t.Errorf("an inverse cell is drawn: %q", ansi)
	}
}

// Two clients of different sizes: the one whose size the panes do not
// follow says so in its tab bar, until its next key takes the size back.
func TestTUI_SizeOwnerIndicator(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "size")
	a := Attach(t, h, "size", h.Dir)
	a.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	b := Attach(t, h, "size", h.Dir)
	b.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	if err := pty.Setsize(b.Pty, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	// b is 100×30: its pane area is 74×29 (a 26-column sidebar), which a now shows it follows.
	a.WaitText(t, "SIZE 74×29 (another client)")
	// b redraws on the same layout change a does, maybe a moment later.
	b.WaitScreen(t, "the size owner without the indicator", func(s string) bool { return !strings.Contains(Lines(s)[0], "SIZE") })
	time.Sleep(1100 * time.Millisecond) // the rule under test is time-based: a key claims the size after a second idle
	a.Type("x")
	a.WaitScreen(t, "the indicator to go", func(s string) bool { return !strings.Contains(Lines(s)[0], "SIZE") })
	b.WaitText(t, "SIZE 94×35 (another client)")
}
