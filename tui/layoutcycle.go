package tui

import (
	"fmt"
	"math"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// The layout cycle (next_layout: prefix Space, as in tmux) arranges the
// focused tab's panes in tmux's five layouts in turn. The server has no
// layout presets: its tab is a tree of splits that only pane.move,
// pane.swap and the split ratios change. So the client builds each
// layout with pane.move: every pane but the first goes to a parking tab
// (a new tab of the same workspace), then comes back beside the pane the
// layout puts it next to, split right or down at the ratio that makes the
// panes even. The programs keep running throughout; the parking tab shows
// in the tab bar for the moment it exists, and closes with its last pane.

// layoutNames are tmux's layouts, in its order for next-layout.
var layoutNames = []string{"even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"}

// mainShare is the main pane's share of the tab in the main-* layouts.
const mainShare = 0.6

// layoutStep puts pane beside target, splitting target right or down; the
// first of the two gets ratio of the space.
type layoutStep struct {
	pane, target, split string
	ratio               float64
}

// layoutSteps builds layout name out of panes, starting from panes[0]
// alone in the tab; each step's target is placed by an earlier step.
func layoutSteps(name string, panes []string) []layoutStep {
	if len(panes) < 2 {
		return nil
	}
	first, rest := panes[0], panes[1:]
	switch name {
	case "even-horizontal":
		return chain(first, rest, "right")
	case "even-vertical":
		return chain(first, rest, "down")
	case "main-horizontal":
		return append([]layoutStep{{rest[0], first, "down", mainShare}}, chain(rest[0], rest[1:], "right")...)
	case "main-vertical":
		return append([]layoutStep{{rest[0], first, "right", mainShare}}, chain(rest[0], rest[1:], "down")...)
	}
	// tiled: rows of cols panes, the last row with what is left.
	cols := int(math.Ceil(math.Sqrt(float64(len(panes)))))
	var leaders []string
	for i := 0; i < len(panes); i += cols {
		leaders = append(leaders, panes[i])
	}
	steps := chain(first, leaders[1:], "down")
	for i := 0; i < len(panes); i += cols {
		steps = append(steps, chain(panes[i], panes[i+1:min(i+cols, len(panes))], "right")...)
	}
	return steps
}

// chain puts rest one after another beside first, each taking an even
// share of what is left.
func chain(first string, rest []string, split string) []layoutStep {
	steps := make([]layoutStep, 0, len(rest))
	prev := first
	for i, p := range rest {
		steps = append(steps, layoutStep{pane: p, target: prev, split: split, ratio: 1 / float64(len(rest)-i+1)})
		prev = p
	}
	return steps
}

// layoutCaller is the request connection, as the cycle uses it.
type layoutCaller interface {
	call(method string, params, out any) error
}

// arrange applies a layout to tab: the panes park and come back as
// steps say, and the pane that had the focus has it again. Pane ids may
// change as a pane moves; the answers say the new one.
func arrange(c layoutCaller, tab string, panes []string, focused string, steps []layoutStep) error {
	ids := map[string]string{}
	for _, p := range panes {
		ids[p] = p
	}
	move := func(pane string, d protocol.PaneMoveDestination) (protocol.PaneMoveResult, error) {
		var res protocol.PaneMove
		err := c.call("pane.move", protocol.PaneMoveParams{PaneID: ids[pane], Destination: d}, &res)
		if err == nil && res.MoveResult.Pane.PaneID != "" {
			ids[pane] = res.MoveResult.Pane.PaneID
		}
		return res.MoveResult, err
	}
	park := ""
	parked := map[string]bool{}
	// unpark brings what is parked back into the tab after a failure, so
	// that no pane is left in the parking tab.
	unpark := func(err error) error {
		for _, s := range steps {
			if parked[s.pane] {
				_, _ = move(s.pane, protocol.PaneMoveDestination{Type: "tab", TabID: tab, Split: "down"})
			}
		}
		return err
	}
	for _, s := range steps {
		d := protocol.PaneMoveDestination{Type: "new_tab"}
		if park != "" {
			d = protocol.PaneMoveDestination{Type: "tab", TabID: park, Split: "down"}
		}
		res, err := move(s.pane, d)
		if err != nil {
			return unpark(fmt.Errorf("park pane %s: %w", ids[s.pane], err))
		}
		parked[s.pane] = true
		if park == "" && res.CreatedTab != nil {
			park = res.CreatedTab.TabID
		}
	}
	for _, s := range steps {
		target, ratio := ids[s.target], s.ratio
		if _, err := move(s.pane, protocol.PaneMoveDestination{Type: "tab", TabID: tab, Split: s.split, Ratio: &ratio, TargetPaneID: &target}); err != nil {
			return unpark(fmt.Errorf("place pane %s: %w", ids[s.pane], err))
		}
		parked[s.pane] = false
	}
	if f := ids[focused]; f != "" {
		return c.call("pane.focus", protocol.PaneTarget{PaneID: f}, nil)
	}
	return nil
}

// layoutDone says how a layout went.
type layoutDone struct {
	name string
	err  error
}

func (msg layoutDone) apply(m *model) tea.Cmd {
	m.arranging = false
	if msg.err != nil {
		return m.showToast("layout " + msg.name + ": " + msg.err.Error())
	}
	return m.showToast("layout " + msg.name)
}

// nextLayout arranges the focused tab in the layout after the one it had
// from this client (the first: even-horizontal).
func (m *model) nextLayout() tea.Cmd {
	l, ok := m.focusedLayout()
	switch {
	case !ok || m.link == nil || m.link.req == nil:
		return m.showToast("no tab to arrange")
	case m.arranging:
		return m.showToast("a layout is still being applied")
	case len(l.Panes) < 2:
		return m.showToast("one pane: nothing to arrange")
	}
	if m.layoutOf == nil {
		m.layoutOf = map[string]int{}
	}
	i, seen := m.layoutOf[l.TabID]
	if seen {
		i = (i + 1) % len(layoutNames)
	}
	m.layoutOf[l.TabID] = i
	name := layoutNames[i]
	panes := make([]string, len(l.Panes))
	for j, p := range l.Panes {
		panes[j] = p.PaneID
	}
	m.flushInput()
	m.arranging = true
	c, tab, focused, zoomed := m.link.req, l.TabID, l.FocusedPaneID, l.Zoomed
	return func() tea.Msg {
		if zoomed { // a zoomed tab takes no moves
			if err := c.call("pane.zoom", protocol.PaneZoomParams{Mode: "off", PaneID: &focused}, nil); err != nil {
				return layoutDone{name, err}
			}
		}
		return layoutDone{name, arrange(c, tab, panes, focused, layoutSteps(name, panes))}
	}
}
