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

func openPane(s *Server, entry string, extra map[string]any) protocol.Response {
	p := map[string]any{"plugin_id": "test.worktree-notes", "entrypoint": entry}
	for k, v := range extra {
		p[k] = v
	}
	return s.Call("plugin.pane.open", p)
}

// A popup opens as ok with no pane (nothing in pane.list, no pane event),
// runs with the plugin's environment and no HERDR_PANE_ID, refuses a
// second popup with ui_busy, closes with popup.close (then popup_not_open)
// and by itself when its program exits. Bad sizes and targets change
// nothing.
func TestE2E_Popup_OpenBusyClose(t *testing.T) {
	_, s, state := LinkFixture(t, "popup")
	panesBefore := len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes)

	Fail(t, s.Call("popup.close", nil), "popup_not_open")
	Fail(t, s.Call("popup.send_text", map[string]any{"text": "x"}), "popup_not_open")
	Fail(t, openPane(s, "board", map[string]any{"width": "0%"}), "invalid_params")
	Fail(t, openPane(s, "board", map[string]any{"target_pane_id": "w1:p1"}), "invalid_params")
	Fail(t, openPane(s, "board", map[string]any{"placement": "tab", "height": 5}), "invalid_params")
	Fail(t, s.Call("popup.close", nil), "popup_not_open") // none of those opened one

	OK[protocol.OK](t, openPane(s, "board", nil), "ok")
	var env string
	WaitFor(t, "the popup's program to note its environment", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "popup-env"))
		env = string(b)
		return err == nil && strings.Contains(env, "HERDR_PLUGIN_ENTRYPOINT_ID=board")
	})
	for _, want := range []string{"HERDR_PLUGIN_ID=test.worktree-notes", "HERDR_ENV=1", "TERM=xterm-256color", `"focused_pane_id":"w1:p1"`, `"workspace_id":"w1"`} {
		if !strings.Contains(env, want) {
			t.Errorf("popup environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(env, "HERDR_PANE_ID=") {
		t.Errorf("a popup exported HERDR_PANE_ID:\n%s", env)
	}
	if n := len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes); n != panesBefore {
		t.Errorf("the popup became a pane: %d panes, %d before", n, panesBefore)
	}

	Fail(t, openPane(s, "board", nil), "ui_busy")
	OK[protocol.OK](t, s.Call("popup.send_text", map[string]any{"text": "typed\n"}), "ok")
	OK[protocol.OK](t, s.Call("popup.close", nil), "ok")
	Fail(t, s.Call("popup.close", nil), "popup_not_open")

	// A popup whose program ends closes: another may open at once.
	OK[protocol.OK](t, openPane(s, "board", nil), "ok")
	OK[protocol.OK](t, s.Call("popup.send_text", map[string]any{"text": "\x04"}), "ok") // ctrl-d ends cat
	WaitFor(t, "the popup to close when its program exits", func() bool {
		return s.Call("popup.close", nil).Error != nil
	})
	OK[protocol.OK](t, openPane(s, "board", nil), "ok")
}

// An overlay covers the focused pane zoomed; when its program ends, the
// pane it covered has focus again and the tab its zoom.
func TestE2E_Popup_OverlayGivesFocusBack(t *testing.T) {
	_, s, _ := LinkFixture(t, "overlay")
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"direction": "right", "focus": true}), "pane_info")
	OK[protocol.PaneInfoResult](t, s.Call("pane.focus", map[string]any{"pane_id": "w1:p2"}), "pane_info")
	Fail(t, openPane(s, "peek", map[string]any{"workspace_id": "w1"}), "invalid_params")

	ov := OK[protocol.PluginPaneOpened](t, openPane(s, "peek", nil), "plugin_pane_opened").PluginPane
	if ov.Entrypoint != "peek" || !ov.Pane.Focused {
		t.Fatalf("overlay %+v", ov.Pane)
	}
	s.WaitLine(t, ov.Pane.PaneID, "overlay-peek")
	tab := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), "tab_info").Tab
	snap := SessionSnapshot(t, s)
	if snap.FocusedPaneID == nil || *snap.FocusedPaneID != ov.Pane.PaneID || !zoomed(snap, tab.TabID) {
		t.Fatalf("the overlay is not focused and zoomed: focused %v", snap.FocusedPaneID)
	}
	OK[protocol.PluginPaneClosed](t, s.Call("plugin.pane.close", map[string]any{"pane_id": ov.Pane.PaneID}), "plugin_pane_closed")
	snap = SessionSnapshot(t, s)
	if snap.FocusedPaneID == nil || *snap.FocusedPaneID != "w1:p2" || zoomed(snap, tab.TabID) {
		t.Fatalf("after the overlay: focused %v, zoomed %v; want w1:p2 unzoomed", snap.FocusedPaneID, zoomed(snap, tab.TabID))
	}
}

func zoomed(snap protocol.SessionSnapshot, tabID string) bool {
	for _, l := range snap.Layouts {
		if l.TabID == tabID {
			return l.Zoomed
		}
	}
	return false
}
