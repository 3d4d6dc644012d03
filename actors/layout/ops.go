package layout

import "errors"

// Side is a direction of travel between panes.
type Side string

// Sides.
const (
	Left  Side = "left"
	Right Side = "right"
	Up    Side = "up"
	Down  Side = "down"
)

// axis is the split direction whose border a side crosses.
func (s Side) axis() Direction {
	if s == Left || s == Right {
		return SplitRight
	}
	return SplitDown
}

// Swap exchanges two leaves; the split shapes and ratios stay.
func (n *Node) Swap(a, b string) bool {
	la, lb := n.find(a), n.find(b)
	if la == nil || lb == nil {
		return false
	}
	la.Leaf, lb.Leaf = lb.Leaf, la.Leaf
	return true
}

// Neighbor returns the pane beside id on the given side: among the panes
// whose edge touches that side, the one sharing the longest border (ties go
// to the one nearest the top or left).
func Neighbor(panes []PaneRect, id string, side Side) (string, bool) {
	var self Rect
	found := false
	for _, p := range panes {
		if p.ID == id {
			self, found = p.Rect, true
		}
	}
	if !found {
		return "", false
	}
	best, bestOverlap := "", 0
	for _, p := range panes {
		if p.ID == id {
			continue
		}
		r := p.Rect
		var touches bool
		var overlap int
		switch side {
		case Left:
			touches, overlap = r.X+r.W == self.X, span(r.Y, r.H, self.Y, self.H)
		case Right:
			touches, overlap = self.X+self.W == r.X, span(r.Y, r.H, self.Y, self.H)
		case Up:
			touches, overlap = r.Y+r.H == self.Y, span(r.X, r.W, self.X, self.W)
		case Down:
			touches, overlap = self.Y+self.H == r.Y, span(r.X, r.W, self.X, self.W)
		}
		if touches && overlap > bestOverlap {
			best, bestOverlap = p.ID, overlap
		}
	}
	return best, best != ""
}

// span is the length two intervals share.
func span(a, alen, b, blen int) int {
	return max(0, min(a+alen, b+blen)-max(a, b))
}

// AtEdge reports whether a rectangle touches the given side of the area.
func AtEdge(area, r Rect, side Side) bool {
	switch side {
	case Left:
		return r.X == area.X
	case Right:
		return r.X+r.W == area.X+area.W
	case Up:
		return r.Y == area.Y
	default:
		return r.Y+r.H == area.Y+area.H
	}
}

// Resize moves the border of the nearest enclosing split that lies across
// side by amount: right and down move it right/down, left and up move it
// left/up. Ratios stay within 0.1–0.9. It reports whether a ratio changed.
func (n *Node) Resize(id string, side Side, amount float64) bool {
	split := n.enclosing(id, side.axis())
	if split == nil {
		return false
	}
	delta := amount
	if side == Left || side == Up {
		delta = -amount
	}
	ratio := ClampRatio(split.Ratio + delta)
	if ratio == split.Ratio {
		return false
	}
	split.Ratio = ratio
	return true
}

// enclosing finds the innermost split of the given direction above leaf id.
func (n *Node) enclosing(id string, dir Direction) *Node {
	if n.IsLeaf() {
		return nil
	}
	var inner *Node
	if n.First.Contains(id) {
		inner = n.First.enclosing(id, dir)
	} else if n.Second.Contains(id) {
		inner = n.Second.enclosing(id, dir)
	} else {
		return nil
	}
	if inner != nil {
		return inner
	}
	if n.Dir == dir {
		return n
	}
	return nil
}

// ErrNoSplit reports a path that does not lead to a split.
var ErrNoSplit = errors.New("no split at that path")

// SplitAt returns the split reached by following path from the root
// (false = first child, true = second).
func (n *Node) SplitAt(path []bool) (*Node, error) {
	cur := n
	for _, second := range path {
		if cur.IsLeaf() {
			return nil, ErrNoSplit
		}
		if second {
			cur = cur.Second
		} else {
			cur = cur.First
		}
	}
	if cur.IsLeaf() {
		return nil, ErrNoSplit
	}
	return cur, nil
}

// Clone returns a deep copy of the tree.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.First, c.Second = n.First.Clone(), n.Second.Clone()
	return &c
}
