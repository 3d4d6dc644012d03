package tests

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// paneCount is the number of panes the server has, all workspaces.
func paneCount(t *testing.T, s *Server) int {
	t.Helper()
	return len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes)
}

// TestHardening_Gateway2_MisspeltTargetRefused: pane.split's target field
// is target_pane_id; a request that said pane_id used to have it ignored
// and split the focused pane, in another workspace. Now an unknown field
// that names an entity, where the method's own target was left out, is
// invalid_params saying which field was meant, and nothing is created;
// the right field still works, and a harmless unknown field is still
// ignored (Herdr's clients may send extra fields).
func TestHardening_Gateway2_MisspeltTargetRefused(t *testing.T) {
	s := StartServer(t)
	first := s.CreateWorkspace(t, nil).RootPane.PaneID
	focused := s.CreateWorkspace(t, nil)
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.focus", map[string]any{"workspace_id": focused.Workspace.WorkspaceID}), "workspace_info")
	before := paneCount(t, s)

	msg := Fail(t, s.Call("pane.split", map[string]any{"direction": "right", "pane_id": first}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, `"pane_id"`) || !strings.Contains(msg, `did you mean "target_pane_id"`) {
		t.Errorf("message %q does not say which field was meant", msg)
	}
	if n := paneCount(t, s); n != before {
		t.Fatalf("a refused split created panes: %d, had %d", n, before)
	}

	split := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"direction": "right", "target_pane_id": first, "label_hint": "x"}), "pane_info")
	if split.Pane.WorkspaceID == focused.Workspace.WorkspaceID {
		t.Errorf("split of %s landed in the focused workspace %s", first, split.Pane.WorkspaceID)
	}
	if n := paneCount(t, s); n != before+1 {
		t.Errorf("panes after one split: %d, want %d", n, before+1)
	}
	OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": first, "verbose": true}), "pane_info")

	// pane.zoom defaults to the focused pane too; its target is pane_id.
	msg = Fail(t, s.Call("pane.zoom", map[string]any{"target_pane_id": first}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, `did you mean "pane_id"`) {
		t.Errorf("pane.zoom message %q", msg)
	}
}
