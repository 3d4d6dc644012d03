package tests

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Output is what the client wrote to its terminal so far, escape sequences
// included.
func (c *TUI) Output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.raw)
}

// Copy mode round trip: prefix [, keyboard scrolling to the top of the
// history, a backward search, a selection by keys, and y copies it to the
// system clipboard through OSC 52 written to the outer terminal.
func TestTUI_CopyModeToClipboard(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "copy")
	c := Attach(t, h, "copy", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return framedPanes(s) == 1 })
	shellReady(t, c, "ready")
	c.Type("i=1; while [ $i -le 80 ]; do echo hist-$i; i=$((i+1)); done; echo 'beta two words'; echo gamma-$((6*7))\r")
	c.WaitText(t, "gamma-42")

	c.Type(tuiPrefix + "[")
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
	c.Type(tuiPrefix + "[")
	c.WaitText(t, "COPY")
	c.Type("kvq")
	c.WaitScreen(t, "copy mode to end", func(s string) bool { return !strings.Contains(s, "COPY") })
	if n := strings.Count(c.Output(), "\x1b]52;"); n != before {
		t.Errorf("q wrote %d OSC 52 sequences", n-before)
	}
}
