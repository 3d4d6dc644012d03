package harness

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// PaneLayout is pane.layout of pane ("" = the focused pane).
func PaneLayout(t testing.TB, s *Server, pane string) protocol.PaneLayoutSnapshot {
	t.Helper()
	params := map[string]any{}
	if pane != "" {
		params["pane_id"] = pane
	}
	return OK[protocol.PaneLayout](t, s.CallT(t, "pane.layout", params), "pane_layout").Layout
}

// RectOf is a pane's rectangle in a layout snapshot.
func RectOf(t testing.TB, l protocol.PaneLayoutSnapshot, pane string) protocol.Rect {
	t.Helper()
	for _, p := range l.Panes {
		if p.PaneID == pane {
			return p.Rect
		}
	}
	t.Fatalf("pane %s is not in the layout of %s: %+v", pane, l.TabID, l.Panes)
	return protocol.Rect{}
}
