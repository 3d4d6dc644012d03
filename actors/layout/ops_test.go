package layout

import "testing"

// grid2x2 is (a | b) over (c | d): a down split of two right splits.
func grid2x2() *Node {
	root := NewLeaf("a")
	root.Split("a", "c", SplitDown, 0.5)
	root.Split("a", "b", SplitRight, 0.5)
	root.Split("c", "d", SplitRight, 0.5)
	return root
}

func TestOps_Neighbor(t *testing.T) {
	panes, _ := grid2x2().Compute(Rect{0, 0, 100, 40})
	cases := []struct {
		id   string
		side Side
		want string
	}{
		{"a", Right, "b"}, {"a", Down, "c"}, {"a", Left, ""}, {"a", Up, ""},
		{"d", Left, "c"}, {"d", Up, "b"}, {"b", Down, "d"}, {"c", Up, "a"},
	}
	for _, c := range cases {
		got, ok := Neighbor(panes, c.id, c.side)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Neighbor(%s, %s) = %q %v, want %q", c.id, c.side, got, ok, c.want)
		}
	}
}

func TestOps_SwapKeepsShape(t *testing.T) {
	root := grid2x2()
	if !root.Swap("a", "d") {
		t.Fatal("swap failed")
	}
	if got := root.String(); got != "((d right 0.50 b) down 0.50 (c right 0.50 a))" {
		t.Fatalf("after swap: %s", got)
	}
	if root.Swap("a", "zz") {
		t.Fatal("swap with a missing leaf succeeded")
	}
}

func TestOps_Resize(t *testing.T) {
	root := grid2x2()
	if !root.Resize("a", Right, 0.1) {
		t.Fatal("resize right did not change")
	}
	if r := root.First.Ratio; r < 0.599 || r > 0.601 {
		t.Fatalf("inner ratio = %v", r)
	}
	if !root.Resize("a", Up, 0.2) || root.Ratio > 0.301 || root.Ratio < 0.299 {
		t.Fatalf("outer ratio = %v", root.Ratio)
	}
	for i := 0; i < 20; i++ {
		root.Resize("a", Up, 0.2)
	}
	if root.Ratio != 0.1 {
		t.Fatalf("ratio not clamped: %v", root.Ratio)
	}
	if root.Resize("a", Up, 0.2) {
		t.Fatal("a clamped resize reported a change")
	}
	single := NewLeaf("x")
	if single.Resize("x", Left, 0.1) {
		t.Fatal("resizing a lone pane changed something")
	}
}

func TestOps_SplitAt(t *testing.T) {
	root := grid2x2()
	if s, err := root.SplitAt(nil); err != nil || s != root {
		t.Fatalf("root: %v %v", s, err)
	}
	if s, err := root.SplitAt([]bool{true}); err != nil || s.First.Leaf != "c" {
		t.Fatalf("second: %v %v", s, err)
	}
	if _, err := root.SplitAt([]bool{true, false}); err == nil {
		t.Fatal("path to a leaf accepted")
	}
	c := root.Clone()
	c.Ratio = 0.7
	if root.Ratio == 0.7 {
		t.Fatal("Clone shares nodes")
	}
}
