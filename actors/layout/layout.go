package layout

import (
	"fmt"
	"math"
)

// Direction of a split: SplitRight puts the second child beside the first,
// SplitDown puts it below.
type Direction string

// Split directions.
const (
	SplitRight Direction = "right"
	SplitDown  Direction = "down"
)

// Rect is a cell rectangle.
type Rect struct{ X, Y, W, H int }

// Node is a leaf (Leaf set) or a split (First and Second set).
type Node struct {
	Leaf          string
	Dir           Direction
	Ratio         float64
	First, Second *Node
}

// NewLeaf returns a tree of one pane.
func NewLeaf(id string) *Node { return &Node{Leaf: id} }

// IsLeaf reports whether n is a pane.
func (n *Node) IsLeaf() bool { return n.First == nil }

// ClampRatio keeps ratios within 0.1–0.9 so neither side vanishes.
func ClampRatio(r float64) float64 { return math.Min(0.9, math.Max(0.1, r)) }

// Split replaces the leaf target with a split whose first child is target
// and second is the new leaf. It returns false if target is not in the tree.
func (n *Node) Split(target, newLeaf string, dir Direction, ratio float64) bool {
	leaf := n.find(target)
	if leaf == nil {
		return false
	}
	*leaf = Node{Dir: dir, Ratio: ClampRatio(ratio), First: &Node{Leaf: target}, Second: &Node{Leaf: newLeaf}}
	return true
}

func (n *Node) find(id string) *Node {
	if n.IsLeaf() {
		if n.Leaf == id {
			return n
		}
		return nil
	}
	if f := n.First.find(id); f != nil {
		return f
	}
	return n.Second.find(id)
}

// Contains reports whether id is a leaf of the tree.
func (n *Node) Contains(id string) bool { return n.find(id) != nil }

// Remove deletes the leaf id; its sibling takes the parent split's place.
// It returns the new root (nil when the tree becomes empty) and whether id was found.
func Remove(root *Node, id string) (*Node, bool) {
	if root == nil {
		return nil, false
	}
	if root.IsLeaf() {
		if root.Leaf == id {
			return nil, true
		}
		return root, false
	}
	if root.First.IsLeaf() && root.First.Leaf == id {
		return root.Second, true
	}
	if root.Second.IsLeaf() && root.Second.Leaf == id {
		return root.First, true
	}
	if nf, ok := Remove(root.First, id); ok {
		root.First = nf
		return root, true
	}
	if ns, ok := Remove(root.Second, id); ok {
		root.Second = ns
		return root, true
	}
	return root, false
}

// Leaves returns the pane ids in reading order (first before second).
func (n *Node) Leaves() []string {
	var out []string
	n.walk(func(leaf string) { out = append(out, leaf) })
	return out
}

func (n *Node) walk(f func(string)) {
	if n.IsLeaf() {
		f(n.Leaf)
		return
	}
	n.First.walk(f)
	n.Second.walk(f)
}

// PaneRect is a leaf's rectangle.
type PaneRect struct {
	ID   string
	Rect Rect
}

// SplitRect is a split's rectangle; Path is its position from the root
// (false = first, true = second), which also names it.
type SplitRect struct {
	Path  []bool
	Dir   Direction
	Ratio float64
	Rect  Rect
}

// ID renders a split path as a stable identifier: "root", "root.0.1", …
func (s SplitRect) ID() string {
	id := "root"
	for _, p := range s.Path {
		if p {
			id += ".1"
		} else {
			id += ".0"
		}
	}
	return id
}

// Compute lays the tree out in area. Every pane gets at least 1×1 cells; the
// panes tile the area without overlap.
func (n *Node) Compute(area Rect) ([]PaneRect, []SplitRect) {
	var panes []PaneRect
	var splits []SplitRect
	var rec func(n *Node, r Rect, path []bool)
	rec = func(n *Node, r Rect, path []bool) {
		if n.IsLeaf() {
			panes = append(panes, PaneRect{ID: n.Leaf, Rect: r})
			return
		}
		splits = append(splits, SplitRect{Path: append([]bool(nil), path...), Dir: n.Dir, Ratio: n.Ratio, Rect: r})
		a, b := divide(r, n.Dir, n.Ratio)
		rec(n.First, a, append(path, false))
		rec(n.Second, b, append(path, true))
	}
	rec(n, area, nil)
	return panes, splits
}

// divide cuts r in two at ratio, giving each side at least one cell when it can.
func divide(r Rect, dir Direction, ratio float64) (Rect, Rect) {
	total := r.W
	if dir == SplitDown {
		total = r.H
	}
	first := int(math.Round(float64(total) * ratio))
	if total >= 2 {
		first = max(1, min(total-1, first))
	} else {
		first = total
	}
	if dir == SplitDown {
		return Rect{r.X, r.Y, r.W, first}, Rect{r.X, r.Y + first, r.W, r.H - first}
	}
	return Rect{r.X, r.Y, first, r.H}, Rect{r.X + first, r.Y, r.W - first, r.H}
}

// String renders the tree for debugging and test failures.
func (n *Node) String() string {
	if n.IsLeaf() {
		return n.Leaf
	}
	return fmt.Sprintf("(%s %s %.2f %s)", n.First, n.Dir, n.Ratio, n.Second)
}
