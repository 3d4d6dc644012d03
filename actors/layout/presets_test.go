package layout

import (
	"slices"
	"testing"
)

// Each preset keeps every pane, in order, and shares the area as its name
// says; an unknown name and no panes are refused.
func TestPreset_Shapes(t *testing.T) {
	area := Rect{W: 120, H: 40}
	ids := []string{"a", "b", "c", "d"}
	rects := func(name string) map[string]Rect {
		t.Helper()
		root, err := Preset(name, ids)
		if err != nil {
			t.Fatal(err)
		}
		if got := root.Leaves(); !slices.Equal(got, ids) {
			t.Fatalf("%s: leaves %v, want %v", name, got, ids)
		}
		panes, _ := root.Compute(area)
		out := map[string]Rect{}
		for _, p := range panes {
			out[p.ID] = p.Rect
		}
		return out
	}
	h := rects("even-horizontal")
	for _, id := range ids {
		if r := h[id]; r.H != 40 || r.W < 28 || r.W > 31 {
			t.Fatalf("even-horizontal: %s is %+v, want a full-height quarter", id, r)
		}
	}
	v := rects("even-vertical")
	for _, id := range ids {
		if r := v[id]; r.W != 120 || r.H < 9 || r.H > 11 {
			t.Fatalf("even-vertical: %s is %+v, want a full-width quarter", id, r)
		}
	}
	mh := rects("main-horizontal")
	if r := mh["a"]; r.W != 120 || r.Y != 0 || r.H < 22 || r.H > 25 {
		t.Fatalf("main-horizontal: main pane %+v, want the top 60%%", r)
	}
	if mh["b"].Y != mh["d"].Y || mh["b"].X >= mh["c"].X {
		t.Fatalf("main-horizontal: the rest are not side by side: %+v", mh)
	}
	mv := rects("main-vertical")
	if r := mv["a"]; r.H != 40 || r.X != 0 || r.W < 70 || r.W > 73 {
		t.Fatalf("main-vertical: main pane %+v, want the left 60%%", r)
	}
	if mv["b"].X != mv["d"].X || mv["b"].Y >= mv["c"].Y {
		t.Fatalf("main-vertical: the rest are not stacked: %+v", mv)
	}
	tl := rects("tiled")
	if tl["a"].Y != tl["b"].Y || tl["c"].Y != tl["d"].Y || tl["a"].Y == tl["c"].Y || tl["a"].X != tl["c"].X {
		t.Fatalf("tiled: want two rows of two: %+v", tl)
	}
	if _, err := Preset("spiral", ids); err == nil {
		t.Fatal("an unknown layout was accepted")
	}
	if _, err := Preset("tiled", nil); err == nil {
		t.Fatal("a layout of no panes was accepted")
	}
	one, err := Preset("main-vertical", []string{"a"})
	if err != nil || !one.IsLeaf() {
		t.Fatalf("one pane: %v %v", one, err)
	}
}
