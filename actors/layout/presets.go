package layout

import (
	"fmt"
	"math"
)

// MainShare is the main pane's share of the tab in the main-* layouts
// (tmux gives it a fixed size; a share keeps it proportional).
const MainShare = 0.6

// Preset arranges leaves (first the main pane, in the order given) as
// one of tmux's layouts (protocol.LayoutPresets): even-horizontal side by side, even-vertical stacked,
// main-horizontal the first on top over the rest side by side,
// main-vertical the first on the left beside the rest stacked, tiled in
// rows of ⌈√n⌉. Every split shares its space evenly among what it holds.
func Preset(name string, leaves []string) (*Node, error) {
	if len(leaves) == 0 {
		return nil, fmt.Errorf("a layout needs at least one pane")
	}
	nodes := make([]*Node, len(leaves))
	for i, id := range leaves {
		nodes[i] = NewLeaf(id)
	}
	switch name {
	case "even-horizontal":
		return even(SplitRight, nodes), nil
	case "even-vertical":
		return even(SplitDown, nodes), nil
	case "main-horizontal", "main-vertical":
		if len(nodes) == 1 {
			return nodes[0], nil
		}
		dir, rest := SplitDown, SplitRight
		if name == "main-vertical" {
			dir, rest = SplitRight, SplitDown
		}
		return &Node{Dir: dir, Ratio: MainShare, First: nodes[0], Second: even(rest, nodes[1:])}, nil
	case "tiled":
		cols := int(math.Ceil(math.Sqrt(float64(len(nodes)))))
		var rows []*Node
		for i := 0; i < len(nodes); i += cols {
			rows = append(rows, even(SplitRight, nodes[i:min(i+cols, len(nodes))]))
		}
		return even(SplitDown, rows), nil
	}
	return nil, fmt.Errorf("unknown layout %q", name)
}

// even lays nodes one after another along dir, each with an equal share.
func even(dir Direction, nodes []*Node) *Node {
	if len(nodes) == 1 {
		return nodes[0]
	}
	return &Node{Dir: dir, Ratio: ClampRatio(1 / float64(len(nodes))), First: nodes[0], Second: even(dir, nodes[1:])}
}
