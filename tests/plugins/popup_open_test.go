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

// popup.open (extension) runs a command line in the session's popup.

// Bad params open nothing; a command runs through /bin/sh in the asked
// folder with the key-command environment (the focused pane's ids and
// folder, no HERDR_PANE_ID) and the extra env; a second one answers
// ui_busy; the popup closes when the command ends.
func TestE2E_PopupOpen_RunsCommandBusyAndCloses(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	info := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": pane}), "pane_info").Pane
	panesBefore := len(s.PaneIDs(t))

	Fail(t, s.Call("popup.open", map[string]any{}), "invalid_params")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "width": "0%"}), "invalid_params")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "height": 1.5}), "invalid_params")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "cwd": "relative"}), "invalid_request")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "cwd": filepath.Join(s.Home.Dir, "missing")}), "invalid_params")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "env": map[string]any{"A=B": "1"}}), "invalid_env")
	Fail(t, s.Call("popup.close", nil), "popup_not_open") // none of those opened one

	dir := t.TempDir()
	out := filepath.Join(dir, "popup-env")
	cmd := `{ pwd; env; } > ` + out + `.tmp && mv ` + out + `.tmp ` + out + `; exec cat`
	OK[protocol.OK](t, s.Call("popup.open", map[string]any{"command": cmd, "title": "Env", "cwd": dir, "env": map[string]any{"EXTRA_VAR": "yes"}, "width": "50%", "height": 10}), "ok")
	var env string
	WaitFor(t, "the popup's command to note its environment", func() bool {
		b, err := os.ReadFile(out)
		env = string(b)
		return err == nil
	})
	if first, _, _ := strings.Cut(env, "\n"); first != dir {
		t.Errorf("the command ran in %q, want %q", first, dir)
	}
	for _, want := range []string{"HERDR_ACTIVE_PANE_ID=" + pane, "HERDR_ACTIVE_WORKSPACE_ID=" + info.WorkspaceID, "HERDR_ACTIVE_TAB_ID=" + info.TabID,
		"HERDR_ACTIVE_PANE_CWD=" + *info.Cwd, "HERDR_SOCKET_PATH=" + s.Socket, "HERDR_ENV=1", "EXTRA_VAR=yes"} {
		if !strings.Contains(env, "\n"+want+"\n") {
			t.Errorf("popup environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(env, "HERDR_PANE_ID=") {
		t.Errorf("a popup exported HERDR_PANE_ID:\n%s", env)
	}
	if n := len(s.PaneIDs(t)); n != panesBefore {
		t.Errorf("the popup became a pane: %d panes, %d before", n, panesBefore)
	}

	Fail(t, s.Call("popup.open", map[string]any{"command": "true"}), "ui_busy")
	OK[protocol.OK](t, s.Call("popup.send_text", map[string]any{"text": "\x04"}), "ok") // ctrl-d ends cat
	WaitFor(t, "the popup to close when its command exits", func() bool {
		return s.Call("popup.close", nil).Error != nil
	})
	// A command that ends at once closes its popup by itself too.
	OK[protocol.OK](t, s.Call("popup.open", map[string]any{"command": "exit 3"}), "ok")
	WaitFor(t, "the popup of a command that ended to close", func() bool {
		return s.Call("popup.close", nil).Error != nil
	})
}

// The attached client draws popup.open's popup with its title and the
// command's output; a second one is refused; keys go to the command,
// and when it ends the popup goes.
func TestTUI_PopupOpen_ShowsCommandOutput(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "popopen")
	c := Attach(t, h, "popopen", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "under")

	OK[protocol.OK](t, s.Call("popup.open", map[string]any{"command": "echo popup-out-$((6*7)); read line; echo never", "title": "Run", "width": 40, "height": 8}), "ok")
	screen := c.WaitText(t, "popup-out-42")
	x, y, ok := FindText(screen, "╭─ Run ")
	area := protocol.Rect{X: TuiSidebar, Y: 1, Width: TuiCols - TuiSidebar, Height: TuiRows - 1}
	outer, _, _ := protocol.PopupGeometry(&protocol.PopupSize{Cells: 40}, &protocol.PopupSize{Cells: 8}, area.Width, area.Height)
	if !ok || x != area.X+outer.X || y != area.Y+outer.Y {
		t.Errorf("popup frame at (%d, %d) (found %v), want (%d, %d):\n%s", x, y, ok, area.X+outer.X, area.Y+outer.Y, screen)
	}
	Fail(t, s.Call("popup.open", map[string]any{"command": "true"}), "ui_busy")

	c.Type("\r") // read ends, and so does the command
	c.WaitScreen(t, "the popup to close when its command ends", func(sc string) bool { return !strings.Contains(sc, "─ Run ") })
	if strings.Contains(c.Screen(), "never") {
		t.Errorf("the popup's last output was drawn over the panes:\n%s", c.Screen())
	}
	c.Type("echo back-$((1+1))\r")
	c.WaitText(t, "back-2") // keys reach the pane again
}

// A [[keys.command]] type = "popup" opens the command in a popup of its
// width and height, with the active pane's ids; pressing it again while
// the popup is open says it is busy; the popup closes with the command.
func TestTUI_KeyCommandPopup_DrawsItsOutput(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, `[[keys.command]]
key = "prefix+y"
command = "echo \"in-popup $HERDR_ACTIVE_PANE_ID $HERDR_ACTIVE_TAB_ID\"; read line"
type = "popup"
width = 44
height = "50%"
`)
	h.Start(t, "keypop")
	c := Attach(t, h, "keypop", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	if strings.Contains(c.Screen(), "popup") {
		t.Fatalf("a popup key command is still said to be unsupported:\n%s", c.Screen())
	}
	ShellReady(t, c, "ready")

	c.Type(TuiPrefix + "y")
	screen := c.WaitText(t, "in-popup w1:p1 w1:t1")
	x, y, ok := FindText(screen, "╭─ popup ")
	area := protocol.Rect{X: TuiSidebar, Y: 1, Width: TuiCols - TuiSidebar, Height: TuiRows - 1}
	outer, _, _ := protocol.PopupGeometry(&protocol.PopupSize{Cells: 44}, &protocol.PopupSize{Percent: 50}, area.Width, area.Height)
	if !ok || x != area.X+outer.X || y != area.Y+outer.Y {
		t.Errorf("popup frame at (%d, %d) (found %v), want (%d, %d) for 44 × 50%%:\n%s", x, y, ok, area.X+outer.X, area.Y+outer.Y, screen)
	}

	c.Type(TuiPrefix + "y")
	c.WaitText(t, "a popup is open already")
	c.Type("\r")
	c.WaitScreen(t, "the popup to close when its command ends", func(sc string) bool { return !strings.Contains(sc, "in-popup") })
}
