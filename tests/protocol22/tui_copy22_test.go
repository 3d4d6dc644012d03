//go:build unix

package protocol22

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Copy mode on the protocol-22 methods reaches the whole history: in a
// pane that printed 5000 numbered lines, a backward search for line 3
// (beyond the old 1000-line read) finds it and the view shows it, the
// status counts the match, y copies it through OSC 52, and leaving returns
// the view to the live bottom.
func TestTUI_Copy22_SearchWholeHistory(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "cp22")
	c := Attach(t, h, "cp22", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "ready")
	c.Type("seq -f 'row-%g.' 1 5000\r")
	c.WaitText(t, "│row-5000.")

	c.Type(TuiPrefix + "[")
	c.WaitText(t, "COPY")
	c.Type("?row-3.\r")
	screen := c.WaitScreen(t, "line 3 on screen", func(sc string) bool {
		return strings.Contains(sc, "│row-3. ") && !strings.Contains(sc, "row-5000.")
	})
	if !strings.Contains(screen, "[1/1]") {
		t.Errorf("the status does not count the one match:\n%s", screen)
	}
	c.Type("v$y")
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("row-3."))
	WaitFor(t, "OSC 52 with line 3", func() bool { return strings.Contains(c.Output(), want) })
	c.WaitScreen(t, "copy mode to end at the live bottom", func(sc string) bool {
		return !strings.Contains(sc, "COPY") && strings.Contains(sc, "│row-5000.")
	})
	info := OK[protocol.PaneInfoResult](t, s.Call("pane.get", protocol.PaneTarget{PaneID: "w1:p1"}), "pane_info")
	if info.Pane.Scroll == nil || info.Pane.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("after copy mode the pane's view is at %+v, want the bottom", info.Pane.Scroll)
	}
}

// Ctrl-click on an OSC 8 hyperlink (its text is no URL) reaches the
// opener with the link's target (pane.link.activate, handled by no
// plugin).
func TestTUI_Copy22_CtrlClickOSC8(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "osc8")
	bin := filepath.Join(h.Dir, "bin")
	opened := filepath.Join(h.Dir, "opened")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho \"$1\" > "+opened+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	c := AttachWithPath(t, h, "osc8", bin)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "links")
	c.Type("printf 'go \\033]8;;https://example.com/osc%s\\033\\\\click-here\\033]8;;\\033\\\\ end\\n' 8\r")
	screen := c.WaitText(t, "│go click-here end")
	clicked := false
	for y, l := range Lines(screen) {
		if i := strings.Index(l, "│go click-here"); i >= 0 {
			x := CellsTo(l, strings.Index(l, "here"))
			c.Type(SgrMouse(16, x, y, false) + SgrMouse(16, x, y, true)) // ctrl + left button
			clicked = true
		}
	}
	if !clicked {
		t.Fatalf("no link row:\n%s", screen)
	}
	WaitFor(t, "the opener to get the OSC 8 target", func() bool {
		b, err := os.ReadFile(opened)
		return err == nil && strings.TrimSpace(string(b)) == "https://example.com/osc8"
	})
}

// pane.edit_scrollback (the CLI's pane edit-scrollback) opens the pane's
// whole history, all 5000 lines, in $EDITOR in a pane of its own, with no
// client attached; the pane goes when the editor ends. An unknown pane is
// pane_not_found.
func TestTUI_Copy22_EditScrollbackWholeHistory(t *testing.T) {
	h := NewHome(t)
	dest := filepath.Join(h.Dir, "edited.txt")
	script := filepath.Join(h.Dir, "editor.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncp \"$1\" '"+dest+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.Env = append(h.Env, "EDITOR="+script, "VISUAL=")
	s := h.Start(t, "ed22")
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	s.Run(t, "w1:p1", "seq -f 'row-%g.' 1 5000")
	s.WaitLine(t, "w1:p1", "row-5000.")

	if _, stderr, code := s.CLI("pane", "edit-scrollback", "w1:p1"); code != 0 {
		t.Fatalf("pane edit-scrollback: exit %d: %s", code, stderr)
	}
	var got []byte
	WaitFor(t, "the editor to get the scrollback", func() bool {
		got, _ = os.ReadFile(dest)
		return strings.Contains(string(got), "row-5000.\n")
	})
	lines := strings.Split(string(got), "\n")
	first := -1
	for i, l := range lines {
		if l == "row-1." {
			first = i
			break
		}
	}
	if first < 0 || !strings.Contains(string(got), "\nrow-2.\nrow-3.\n") {
		t.Fatalf("the editor's file lacks the start of the history (%d lines):\n%.300s", len(lines), got)
	}
	WaitFor(t, "the editor's pane to close with it", func() bool { return len(s.PaneIDs(t)) == 1 })

	_, stderr, code := s.CLI("pane", "edit-scrollback", "w1:p9")
	if code != 1 || !strings.Contains(stderr, protocol.CodePaneNotFound) {
		t.Fatalf("an unknown pane: exit %d: %s", code, stderr)
	}
}
