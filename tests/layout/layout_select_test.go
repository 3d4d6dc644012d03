package layout

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestE2E_Layout_Select: layout.select arranges a tab's running panes as
// one of tmux's layouts in one change (the client's prefix Space cycles
// them): the panes keep their ids and the focus, a zoomed tab is unzoomed,
// the CLI verb says the same, and an unknown layout changes nothing.
func TestE2E_Layout_Select(t *testing.T) {
	s := startLayoutServer(t)
	grid(t, s) // w1:p1..p4 in a 2×2 grid, w1:p4 focused
	OK[protocol.PaneZoom](t, s.CallT(t, "pane.zoom", map[string]any{"pane_id": "w1:p4", "mode": "on"}), "pane_zoom")
	rects := func(l protocol.PaneLayoutSnapshot) map[string]protocol.Rect {
		out := map[string]protocol.Rect{}
		for _, p := range l.Panes {
			out[p.PaneID] = p.Rect
		}
		return out
	}

	sel := OK[protocol.LayoutSelected](t, s.CallT(t, "layout.select", map[string]any{"layout": "even-vertical", "pane_id": "w1:p1"}), "layout_selected")
	if !sel.Changed || sel.TabID != "w1:t1" || sel.Layout != "even-vertical" || sel.Panes.Zoomed || sel.Panes.FocusedPaneID != "w1:p4" {
		t.Fatalf("even-vertical: %+v", sel)
	}
	r := rects(sel.Panes)
	if len(r) != 4 {
		t.Fatalf("even-vertical kept %d panes, want 4: %+v", len(r), r)
	}
	for i, id := range []string{"w1:p1", "w1:p3", "w1:p2", "w1:p4"} { // the order they stood in
		if got := r[id]; got.Width != 200 || got.Height < 11 || got.Height > 14 || (i > 0 && got.Y <= r[[]string{"w1:p1", "w1:p3", "w1:p2", "w1:p4"}[i-1]].Y) {
			t.Fatalf("even-vertical: %s is %+v (all %+v), want full-width rows in order", id, got, r)
		}
	}
	// What a read sees afterwards is the same arrangement.
	got := rects(OK[protocol.PaneLayout](t, s.CallT(t, "pane.layout", map[string]any{"pane_id": "w1:p2"}), "pane_layout").Layout)
	for id, want := range r {
		if got[id] != want {
			t.Fatalf("pane.layout after select: %s is %+v, want %+v", id, got[id], want)
		}
	}

	// The same layout again changes nothing.
	if again := OK[protocol.LayoutSelected](t, s.CallT(t, "layout.select", map[string]any{"layout": "even-vertical"}), "layout_selected"); again.Changed {
		t.Fatalf("selecting the layout the tab has reported a change: %+v", again)
	}

	// The CLI verb, built from the table.
	out, errOut, code := s.CLI("layout", "select", "main-vertical", "--tab", "w1:t1")
	if code != 0 || !strings.Contains(out, `"type":"layout_selected"`) || !strings.Contains(out, `"layout_name":"main-vertical"`) {
		t.Fatalf("herdr layout select: exit %d %s %s", code, out, errOut)
	}
	r = rects(OK[protocol.PaneLayout](t, s.CallT(t, "pane.layout", map[string]any{"pane_id": "w1:p1"}), "pane_layout").Layout)
	if main := r["w1:p1"]; main.X != 0 || main.Height != 50 || main.Width < 115 || main.Width > 125 {
		t.Fatalf("main-vertical: the main pane is %+v, want the left 60%%", main)
	}

	// An unknown layout is refused, naming the choices, and nothing moves.
	msg := Fail(t, s.CallT(t, "layout.select", map[string]any{"layout": "spiral"}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "tiled") {
		t.Fatalf("the refusal %q does not name the layouts", msg)
	}
	after := rects(OK[protocol.PaneLayout](t, s.CallT(t, "pane.layout", map[string]any{"pane_id": "w1:p1"}), "pane_layout").Layout)
	for id, want := range r {
		if after[id] != want {
			t.Fatalf("a refused select moved %s: %+v, was %+v", id, after[id], want)
		}
	}
	if _, errOut, code := s.CLI("layout", "select", "spiral"); code == 0 || !strings.Contains(errOut, "unknown layout") {
		t.Fatalf("herdr layout select spiral: exit %d, %s", code, errOut)
	}
}
