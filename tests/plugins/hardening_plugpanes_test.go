//go:build unix

package plugins

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The plugins actor keeps which terminal runs which plugin entrypoint; the
// session opens, focuses and closes the panes. These tests hold the two
// together where they can drift apart.

// plugPanesPlugin writes a plugin with a pane that exits on a line typed
// into it and one that stays.
func plugPanesPlugin(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	manifest := `id = "test.plugpanes"
name = "Plug panes"
version = "1.0.0"
min_herdr_version = "0.1.0"
platforms = ["linux", "macos"]

[[panes]]
id = "brief"
title = "Brief"
placement = "split"
command = ["sh", "-c", "echo brief-pane; read line"]

[[panes]]
id = "stay"
title = "Stay"
placement = "split"
command = ["sh", "-c", "echo stay-pane; sleep 300"]
`
	path := filepath.Join(dir, "herdr-plugin.toml")
	if err := os.WriteFile(path, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A plugin pane whose program exited is no plugin pane any more:
// plugin.pane.close and plugin.pane.focus answer plugin_pane_not_found
// (once: the next call on the connection gets its own answer), and the
// panes still there are untouched.
func TestHardening_PluginPane_ExitedThenClosedIsNotFound(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "plugexit")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": plugPanesPlugin(t)}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	opened := OK[protocol.PluginPaneOpened](t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.plugpanes", "entrypoint": "brief"}), "plugin_pane_opened").PluginPane
	if opened.Pane.PaneID != "w1:p2" || opened.Entrypoint != "brief" {
		t.Fatalf("opened %+v", opened)
	}
	s.WaitLine(t, "w1:p2", "brief-pane")
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": "w1:p2", "text": "bye\r"}), "ok")
	WaitFor(t, "the plugin pane to close", func() bool { return s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}).Error != nil })

	c := s.Dial(t)
	send := func(id, method string, params map[string]any) {
		t.Helper()
		p, _ := json.Marshal(params)
		line, _ := json.Marshal(protocol.Request{ID: id, Method: method, Params: p})
		if err := c.WriteLine(line); err != nil {
			t.Fatal(err)
		}
	}
	for _, method := range []string{"plugin.pane.close", "plugin.pane.focus"} {
		// Pipelined: the ping is answered only after the call before it.
		send(method, method, map[string]any{"pane_id": "w1:p2"})
		send("ping-"+method, "ping", map[string]any{})
		if r := ReadResponse(t, c); r.ID != method || r.Error == nil || r.Error.Code != protocol.CodePluginPaneNotFound {
			t.Fatalf("%s of an exited plugin pane: %+v", method, r)
		}
		if r := ReadResponse(t, c); r.ID != "ping-"+method {
			t.Fatalf("after %s: %+v, want the ping's answer (the call was answered twice?)", method, r)
		}
	}
	if ids := s.PaneIDs(t); len(ids) != 1 || ids[0] != "w1:p1" {
		t.Fatalf("panes left: %v", ids)
	}
}

// A plugin pane keeps its plugin identity when pane.move gives it another
// id: plugin.pane.focus|close find it by the new id (the session resolves
// it to its terminal, which the plugins actor knows), and a plain pane is
// still no plugin pane.
func TestHardening_PluginPane_MovedIsStillAPluginPane(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "plugmove")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": plugPanesPlugin(t)}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	OK[protocol.PluginPaneOpened](t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.plugpanes", "entrypoint": "stay"}), "plugin_pane_opened")
	s.WaitLine(t, "w1:p2", "stay-pane")
	moved := OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "new_workspace"}}), "pane_move").MoveResult
	id := moved.Pane.PaneID
	if !moved.Changed || id == "w1:p2" {
		t.Fatalf("moved %+v", moved)
	}
	focused := OK[protocol.PluginPaneFocused](t, s.Call("plugin.pane.focus", map[string]any{"pane_id": id}), "plugin_pane_focused").PluginPane
	if focused.PluginID != "test.plugpanes" || focused.Entrypoint != "stay" || focused.Pane.PaneID != id || !focused.Pane.Focused {
		t.Fatalf("focused %+v", focused)
	}
	Fail(t, s.Call("plugin.pane.close", map[string]any{"pane_id": "w1:p1"}), protocol.CodePluginPaneNotFound)
	if closed := OK[protocol.PluginPaneClosed](t, s.Call("plugin.pane.close", map[string]any{"pane_id": id}), "plugin_pane_closed"); closed.PaneID != id {
		t.Fatalf("closed %+v", closed)
	}
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": id}), protocol.CodePaneNotFound)
	Fail(t, s.Call("plugin.pane.close", map[string]any{"pane_id": id}), protocol.CodePluginPaneNotFound)
}

// Popups are assembled by the clients actor from the context the session
// forwards: with no workspace there is no pane to run beside (popup.open:
// no_active_pane; a plugin's popup: plugin_pane_open_failed); a bad folder
// is refused as such even while a popup is open, and only a good request
// meets ui_busy.
func TestHardening_Popup_RefusalsComeInTheirOrder(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "popups")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": filepath.Join(fixturePlugin(t), "herdr-plugin.toml")}), "plugin_linked")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true"}), protocol.CodeNoActivePane)
	Fail(t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "board"}), protocol.CodePluginPaneOpenFailed)
	s.CreateWorkspace(t, nil)
	OK[protocol.OK](t, s.Call("popup.open", map[string]any{"command": "exec cat"}), "ok")
	Fail(t, s.Call("popup.open", map[string]any{"command": "true", "cwd": filepath.Join(h.Dir, "missing")}), protocol.CodeInvalidParams)
	Fail(t, s.Call("popup.open", map[string]any{"command": "true"}), protocol.CodeUIBusy)
	Fail(t, s.Call("plugin.pane.open", map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": "board"}), protocol.CodeUIBusy)
	OK[protocol.OK](t, s.Call("popup.close", nil), "ok")
	if ids := s.PaneIDs(t); len(ids) != 1 {
		t.Fatalf("popups became panes: %v", ids)
	}
}
