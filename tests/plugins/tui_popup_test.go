//go:build unix

package plugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A plugin popup floats over the attached client's panes with its title;
// what is typed goes to it, not to the pane under it; another popup is
// refused while it is open; popup.close takes it away, and so does its
// program ending.
func TestTUI_Popup_KeysGoToThePopup(t *testing.T) {
	h, s, _ := LinkFixture(t, "tpop")
	c := Attach(t, h, "tpop", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "under")

	OK[protocol.OK](t, openPane(s, "board", nil), "ok")
	screen := c.WaitText(t, "popup-ready")
	if !strings.Contains(screen, "─ Board ") {
		t.Fatalf("no popup frame titled Board:\n%s", screen)
	}
	// 60% of the tab area wide, 12 rows high, centred: find its frame.
	top, left := -1, -1
	for y, l := range Lines(screen) {
		if i := strings.Index(l, "╭─ Board"); i >= 0 {
			top, left = y, CellsTo(l, i)
		}
	}
	area := protocol.Rect{X: TuiSidebar, Y: 1, Width: TuiCols - TuiSidebar, Height: TuiRows - 1}
	outer, _, _ := protocol.PopupGeometry(&protocol.PopupSize{Percent: 60}, &protocol.PopupSize{Cells: 12}, area.Width, area.Height)
	if top != area.Y+outer.Y || left != area.X+outer.X {
		t.Errorf("popup frame at (%d, %d), want (%d, %d)", left, top, area.X+outer.X, area.Y+outer.Y)
	}

	c.Type("typed-in-popup\r")
	WaitFor(t, "cat in the popup to echo the line", func() bool {
		return strings.Count(c.Screen(), "typed-in-popup") == 2 // the tty's echo and cat's
	})
	if read := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": "w1:p1", "source": "recent"}), "pane_read"); strings.Contains(read.Read.Text, "typed-in-popup") {
		t.Fatalf("the pane under the popup got the keys:\n%s", read.Read.Text)
	}
	Fail(t, openPane(s, "board", nil), "ui_busy")

	OK[protocol.OK](t, s.Call("popup.close", nil), "ok")
	c.WaitScreen(t, "the popup to go", func(sc string) bool { return !strings.Contains(sc, "Board") })
	c.Type("echo back-$((1+1))\r")
	c.WaitText(t, "back-2") // keys reach the pane again

	OK[protocol.OK](t, openPane(s, "board", nil), "ok")
	c.WaitText(t, "popup-ready")
	c.Type("\x04") // ctrl-d: cat ends, the popup closes
	c.WaitScreen(t, "the popup to close when its program ends", func(sc string) bool { return !strings.Contains(sc, "Board") })
	Fail(t, s.Call("popup.close", nil), "popup_not_open")
}

// Ctrl-click on a URL a plugin's [[link_handlers]] pattern matches runs
// the handler's action with the URL, the handler and the pane; another
// URL opens in the browser (a stand-in xdg-open here).
func TestTUI_Popup_CtrlClickLinkHandler(t *testing.T) {
	h, _, state := LinkFixture(t, "tlink")
	bin := filepath.Join(h.Dir, "bin")
	opened := filepath.Join(h.Dir, "opened")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$1\" > " + opened + "\n"
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	c := AttachWithPath(t, h, "tlink", bin)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "links")
	c.Type("printf 'see https://example.com/iss%s and https://example.com/ot%s.\\n' ues/42 her\r")
	screen := c.WaitText(t, "│see https://example.com/issues/42 and")
	click := func(word string) {
		t.Helper()
		for y, l := range Lines(screen) {
			if i := strings.Index(l, "│see https://"); i >= 0 {
				x := CellsTo(l, strings.Index(l, word))
				c.Type(SgrMouse(16, x, y, false) + SgrMouse(16, x, y, true)) // ctrl + left button
				return
			}
		}
		t.Fatalf("no link row:\n%s", screen)
	}
	click("issues/42")
	var got string
	WaitFor(t, "the link handler's action", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "clicked"))
		got = strings.TrimSpace(string(b))
		return err == nil && got != ""
	})
	if want := "issue|https://example.com/issues/42|w1:p1|test.worktree-notes.link"; got != want {
		t.Errorf("the handler ran with %q, want %q", got, want)
	}
	if _, err := os.Stat(opened); err == nil {
		t.Errorf("a handled link also opened in the browser")
	}
	click("other")
	WaitFor(t, "the browser to open the other link", func() bool {
		b, err := os.ReadFile(opened)
		return err == nil && strings.TrimSpace(string(b)) == "https://example.com/other"
	})
}
