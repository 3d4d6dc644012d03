package layout

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// layout.apply with an existing tab_id: the answer's layout names the tab
// that now holds the layout (its panes live there, the replaced tab is
// gone), which keeps the replaced tab's name when no tab_label is given.
func TestLayoutApply_ExistingTab_ResultNamesTheHolder(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, map[string]any{"focus": true})
	old := ws.Tab.TabID
	OK[protocol.TabInfoResult](t, s.CallT(t, "tab.rename", map[string]any{"tab_id": old, "label": "build"}), "tab_info")
	root := map[string]any{"type": "split", "direction": "right", "ratio": 0.5,
		"first": map[string]any{"type": "pane"}, "second": map[string]any{"type": "pane"}}
	l := OK[protocol.LayoutApply](t, s.CallT(t, "layout.apply", map[string]any{"root": root, "tab_id": old}), "layout_apply").Layout
	if l.TabID == "" || l.TabID == old || l.WorkspaceID != ws.Workspace.WorkspaceID {
		t.Fatalf("result layout = %+v, want the new holder of the layout in %s", l, ws.Workspace.WorkspaceID)
	}
	Fail(t, s.CallT(t, "tab.get", map[string]any{"tab_id": old}), protocol.CodeTabNotFound)
	tab := OK[protocol.TabInfoResult](t, s.CallT(t, "tab.get", map[string]any{"tab_id": l.TabID}), "tab_info").Tab
	if tab.PaneCount != 2 || tab.Label != "build" || !tab.Focused {
		t.Fatalf("holder tab = %+v, want 2 panes, the replaced tab's label build, focused", tab)
	}
	for _, leaf := range []*protocol.LayoutNode{l.Root.First, l.Root.Second} {
		p := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": str(leaf.PaneID)}), "pane_info").Pane
		if p.TabID != l.TabID {
			t.Fatalf("pane %s is in %s, not in the tab the result names %s", p.PaneID, p.TabID, l.TabID)
		}
	}
	if ex := OK[protocol.LayoutExport](t, s.CallT(t, "layout.export", map[string]any{"tab_id": l.TabID}), "layout_export").Layout; ex.TabID != l.TabID || ex.Root.Type != "split" {
		t.Fatalf("export of the named tab = %+v", ex)
	}
	// tab_id and workspace_id together are refused before anything starts.
	panes := len(s.PaneIDs(t))
	Fail(t, s.CallT(t, "layout.apply", map[string]any{"root": root, "tab_id": l.TabID, "workspace_id": ws.Workspace.WorkspaceID}), "invalid_target")
	if n := len(s.PaneIDs(t)); n != panes {
		t.Fatalf("a refused apply changed the pane count %d → %d", panes, n)
	}
}
