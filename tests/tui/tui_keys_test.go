package tui

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_ShiftEnterReachesThePaneAsAsked: the client asks its terminal
// for the kitty keyboard protocol, so shift+enter arrives as CSI 13;2u
// (what a terminal speaking the protocol sends); a program that did not
// ask for the protocol gets enter's legacy byte, one that pushed its
// disambiguation flag (as agents' TUIs do) gets the key as CSI u.
func TestTUI_ShiftEnterReachesThePaneAsAsked(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "keys")
	c := Attach(t, h, "keys", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	const shiftEnter = "\x1b[13;2u"

	// Legacy: the program reads two raw bytes and prints them in hex.
	c.Type("stty raw -echo; echo legacy-$((6*7)); dd bs=1 count=2 2>/dev/null | od -An -tx1; stty sane; echo legacy-over-$((6*7))\r")
	c.WaitText(t, "legacy-42")
	c.Type(shiftEnter + "z")
	c.WaitText(t, "0d 7a")
	c.WaitText(t, "legacy-over-42") // the terminal is sane again: what is typed next is read whole

	// The program pushes the kitty flag 1 and reads the eight bytes of
	// shift+enter as CSI u and a z.
	c.Type("clear; printf '\\033[>1u'; stty raw -echo; echo kitty-$((6*7)); dd bs=1 count=8 2>/dev/null | od -An -tx1; printf '\\033[<u'; stty sane; echo kitty-over-$((6*7))\r")
	c.WaitText(t, "kitty-42")
	c.Type(shiftEnter + "z")
	screen := c.WaitText(t, "1b 5b 31 33 3b 32 75 7a")
	c.WaitText(t, "kitty-over-42")
	if strings.Contains(screen, "0d 7a") {
		t.Errorf("the legacy bytes are still on screen after clear:\n%s", screen)
	}
	// The program popped the flag on its way out: legacy bytes again.
	c.Type("clear; stty raw -echo; echo again-$((6*7)); dd bs=1 count=2 2>/dev/null | od -An -tx1; stty sane\r")
	c.WaitText(t, "again-42")
	c.Type(shiftEnter + "z")
	c.WaitText(t, "0d 7a")
	if text := s.Read(t, "w1:p1", "visible", 0).Text; !strings.Contains(text, "0d 7a") {
		t.Errorf("the pane does not hold what the client showed:\n%s", text)
	}
}
