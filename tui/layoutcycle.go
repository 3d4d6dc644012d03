package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// The layout cycle (next_layout: prefix Space, as in tmux) arranges the
// focused tab's panes in tmux's five layouts in turn (protocol.LayoutPresets),
// each one layout.select: the server rebuilds the tab's tree in one change,
// the programs running on. Which layout a tab had is this client's to
// remember, as tmux's next-layout does per window.

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
		i = (i + 1) % len(protocol.LayoutPresets)
	}
	m.layoutOf[l.TabID] = i
	name := protocol.LayoutPresets[i]
	m.flushInput()
	m.arranging = true
	c, tab := m.link.req, l.TabID
	return func() tea.Msg {
		return layoutDone{name, c.call("layout.select", protocol.LayoutSelectParams{Layout: name, TabID: &tab}, nil)}
	}
}
