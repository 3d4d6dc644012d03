package screen

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// Copy mode round trip: prefix [, keyboard scrolling to the top of the
// history, a backward search, a selection by keys, and y copies it to the
// system clipboard through OSC 52 written to the outer terminal.
func TestTUI_CopyModeToClipboard(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "copy")
	c := Attach(t, h, "copy", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("i=1; while [ $i -le 80 ]; do echo hist-$i; i=$((i+1)); done; echo 'beta two words'; echo gamma-$((6*7))\r")
	c.WaitText(t, "gamma-42")

	c.Type(TuiPrefix + "[")
	c.WaitText(t, "COPY")
	// g goes to the top of the history, which the live screen no longer shows.
	c.Type("g")
	c.WaitScreen(t, "the top of the history", func(s string) bool {
		return strings.Contains(s, "│hist-1 ") && !strings.Contains(s, "gamma-42")
	})
	// G goes back to the bottom; ?beta searches backwards.
	c.Type("G")
	c.WaitText(t, "gamma-42")
	c.Type("?beta\r")
	c.Type("v$y")
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("beta two words"))
	WaitFor(t, "OSC 52 with the selection", func() bool { return strings.Contains(c.Output(), want) })
	c.WaitScreen(t, "copy mode to end", func(s string) bool { return !strings.Contains(s, "COPY") })

	// q leaves without copying.
	before := strings.Count(c.Output(), "\x1b]52;")
	c.Type(TuiPrefix + "[")
	c.WaitText(t, "COPY")
	c.Type("kvq")
	c.WaitScreen(t, "copy mode to end", func(s string) bool { return !strings.Contains(s, "COPY") })
	if n := strings.Count(c.Output(), "\x1b]52;"); n != before {
		t.Errorf("q wrote %d OSC 52 sequences", n-before)
	}
}

// Dragging over a pane whose program did not ask for the mouse selects
// and copies on release (copy_on_select); a double click copies a word.
func TestTUI_MouseSelectCopies(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "msel")
	c := Attach(t, h, "msel", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("echo 'drag across-this text'\r")
	screen := c.WaitText(t, "│drag across-this text")
	var row, col int
	for y, l := range Lines(screen) {
		if i := strings.Index(l, "│drag across-this"); i >= 0 {
			row, col = y, CellsTo(l, i)+1
		}
	}
	// Drag from "drag" to the end of "across-this".
	end := col + len("drag across-this") - 1
	c.Type(SgrMouse(0, col, row, false) + SgrMouse(32, col+5, row, false) + SgrMouse(32, end, row, false) + SgrMouse(0, end, row, true))
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("drag across-this"))
	WaitFor(t, "OSC 52 with the dragged text", func() bool { return strings.Contains(c.Output(), want) })

	// A double click on "text" copies the word.
	at := col + len("drag across-this ") + 1
	click := SgrMouse(0, at, row, false) + SgrMouse(0, at, row, true)
	c.Type(click + click)
	want = "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("text"))
	WaitFor(t, "OSC 52 with the double-clicked word", func() bool { return strings.Contains(c.Output(), want) })
}

// prefix e opens the pane's history in $EDITOR (the server's) in a zoomed
// pane of its own (pane.edit_scrollback); the pane goes when the editor
// ends and the keys reach the shell again.
func TestTUI_EditScrollback(t *testing.T) {
	h := NewHome(t)
	dest := filepath.Join(h.Dir, "edited.txt")
	script := filepath.Join(h.Dir, "editor.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncp \"$1\" '"+dest+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.Env = append(h.Env, "EDITOR="+script, "VISUAL=")
	s := h.Start(t, "edit")
	c := Attach(t, h, "edit", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("i=1; while [ $i -le 60 ]; do echo line-$i; i=$((i+1)); done\r")
	c.WaitText(t, "line-60")
	c.Type(TuiPrefix + "e")
	var got []byte
	WaitFor(t, "the editor to get the scrollback", func() bool {
		got, _ = os.ReadFile(dest)
		return strings.Contains(string(got), "line-60")
	})
	if !strings.Contains(string(got), "line-1\n") {
		t.Errorf("the file lacks the history beyond the screen:\n%s", got)
	}
	// The editor's pane (zoomed, so the only one drawn) is gone: the shell
	// takes keys again. The client learns of the focus going back a moment
	// after the server; keys typed before that went to the closed pane, so
	// the line is typed again until it shows.
	WaitFor(t, "the editor's pane to close", func() bool { return len(s.PaneIDs(t)) == 1 })
	for try := 0; ; try++ {
		c.Type("echo back-$((6*7))\r")
		if Eventually(func() bool { return strings.Contains(c.Screen(), "back-42") }) {
			break
		}
		if try == 3 {
			t.Fatalf("the shell does not take keys after the editor's pane closed:\n%s", c.Screen())
		}
	}
}
