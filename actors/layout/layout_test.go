package layout

import (
	"math/rand"
	"slices"
	"testing"
)

func TestLayout_SplitAndRemove(t *testing.T) {
	root := NewLeaf("a")
	if !root.Split("a", "b", SplitRight, 0.5) {
		t.Fatal("split a failed")
	}
	if !root.Split("b", "c", SplitDown, 0.25) {
		t.Fatal("split b failed")
	}
	if root.Split("zz", "d", SplitDown, 0.5) {
		t.Fatal("split of a missing leaf succeeded")
	}
	if got := root.Leaves(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("leaves = %v", got)
	}
	panes, splits := root.Compute(Rect{0, 0, 200, 50})
	want := map[string]Rect{"a": {0, 0, 100, 50}, "b": {100, 0, 100, 13}, "c": {100, 13, 100, 37}}
	for _, p := range panes {
		if p.Rect != want[p.ID] {
			t.Errorf("%s rect = %+v, want %+v", p.ID, p.Rect, want[p.ID])
		}
	}
	if len(splits) != 2 || splits[1].ID() != "root.1" {
		t.Fatalf("splits = %+v", splits)
	}
	root, ok := Remove(root, "b")
	if !ok || root.String() != "(a right 0.50 c)" {
		t.Fatalf("after removing b: %v %v", root, ok)
	}
	root, _ = Remove(root, "a")
	if !root.IsLeaf() || root.Leaf != "c" {
		t.Fatalf("after removing a: %v", root)
	}
	root, ok = Remove(root, "c")
	if !ok || root != nil {
		t.Fatalf("removing the last leaf should empty the tree: %v", root)
	}
}

// TestLayout_RandomTiling splits and removes at random and checks that the
// panes always tile the area exactly, without overlap.
func TestLayout_RandomTiling(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	area := Rect{0, 0, 200, 50}
	for round := 0; round < 200; round++ {
		root := NewLeaf("p0")
		next := 1
		for op := 0; op < 30; op++ {
			leaves := root.Leaves()
			target := leaves[rng.Intn(len(leaves))]
			if rng.Intn(3) > 0 || len(leaves) == 1 {
				dir := SplitRight
				if rng.Intn(2) == 0 {
					dir = SplitDown
				}
				id := "p" + string(rune('A'+next%26)) + string(rune('a'+next/26))
				next++
				root.Split(target, id, dir, 0.05+rng.Float64()*0.9)
			} else {
				root, _ = Remove(root, target)
			}
			checkTiling(t, root, area)
		}
	}
}

func checkTiling(t *testing.T, root *Node, area Rect) {
	t.Helper()
	panes, _ := root.Compute(area)
	cover := make([]int, area.W*area.H)
	for _, p := range panes {
		r := p.Rect
		if r.W < 0 || r.H < 0 {
			t.Fatalf("negative rect %+v in %v", r, root)
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				cover[y*area.W+x]++
			}
		}
	}
	for i, c := range cover {
		if c != 1 {
			t.Fatalf("cell %d covered %d times in %v", i, c, root)
		}
	}
}
