//go:build unix

package persist

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A change whose reply is followed at once by server.stop, on the same
// connection, before any debounced save is due, is in the session file
// when the server has exited: the session's last save goes to the keeper
// as the session stops, and the keeper writes it before the server exits.
func TestKeeper_AChangeMadeAsTheServerStopsIsInTheFile(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "laststop")
	ws := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "label": "first"})
	file := h.SessionFile("laststop")
	WaitFor(t, "the first save", func() bool {
		b, _ := os.ReadFile(file)
		return strings.Contains(string(b), `"first"`)
	})
	// Both requests in one write: the stop reaches the server well within
	// the save delay of the rename.
	var batch []byte
	for _, r := range []struct {
		id, method string
		params     any
	}{
		{"rename", "workspace.rename", map[string]any{"workspace_id": ws.Workspace.WorkspaceID, "label": "renamed as it stopped"}},
		{"stop", "server.stop", struct{}{}},
	} {
		p, _ := json.Marshal(r.params)
		line, _ := json.Marshal(protocol.Request{ID: r.id, Method: r.method, Params: p})
		batch = append(append(batch, line...), '\n')
	}
	c := s.Dial(t)
	if _, err := c.Conn().Write(batch); err != nil {
		t.Fatal(err)
	}
	OK[protocol.WorkspaceInfoResult](t, ReadResponse(t, c), "workspace_info")
	if code := s.WaitExit(t); code != 0 {
		t.Fatalf("server exited %d", code)
	}
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"custom_name": "renamed as it stopped"`) {
		t.Fatalf("after the stop the session file (%v) lacks the rename:\n%.3000s", err, b)
	}
	s2 := h.Start(t, "laststop")
	list := OK[protocol.WorkspaceList](t, s2.Call("workspace.list", nil), "workspace_list")
	if len(list.Workspaces) != 1 || list.Workspaces[0].Label != "renamed as it stopped" {
		t.Fatalf("after the restart: %s", MustJSON(t, list.Workspaces))
	}
}

// A pane's label, then the sidebar's width, the last changed just before a
// kill -9 that comes after the durable window, are both there after the
// next start: a change that publishes no event (the sidebar) is told to
// the keeper as well as one that does, each in a save of its own.
func TestKeeper_KillAfterTheWindowKeepsAPaneLabelAndTheSidebar(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "crash")
	ws := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	file := h.SessionFile("crash")
	WaitFor(t, "the first save", func() bool {
		b, _ := os.ReadFile(file)
		return strings.Contains(string(b), ws.Workspace.WorkspaceID)
	})
	OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": ws.RootPane.PaneID, "label": "kept"}), "pane_info")
	WaitFor(t, "the rename's save", func() bool { // so the sidebar needs a save of its own
		b, _ := os.ReadFile(file)
		return strings.Contains(string(b), `"kept"`)
	})
	OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.set", map[string]any{"sidebar_width": 31}), "client_ui_state")
	time.Sleep(durableWindow + 50*time.Millisecond) // the documented window and a margin, as persist_durable_test.go
	s.Kill(t)

	s2 := h.Start(t, "crash")
	p := OK[protocol.PaneInfoResult](t, s2.Call("pane.get", map[string]any{"pane_id": ws.RootPane.PaneID}), "pane_info").Pane
	if p.Label == nil || *p.Label != "kept" {
		t.Errorf("pane %s is labelled %v after kill -9 and a restart, want kept", p.PaneID, p.Label)
	}
	ui := OK[protocol.ClientUIState](t, ExtCall(t, s2, "client.ui_state.get", struct{}{}), "client_ui_state")
	if ui.SidebarWidth == nil || *ui.SidebarWidth != 31 {
		t.Errorf("sidebar width %v after kill -9 and a restart, want 31", ui.SidebarWidth)
	}
}
