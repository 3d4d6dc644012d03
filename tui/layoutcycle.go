package tui

import (
	tea "charm.land/bubbletea/v2"

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

func (msg layoutDone) apply(t *tmuxParts) tea.Cmd {
	t.arranging = false
	if msg.err != nil {
		return t.h.toast("layout " + msg.name + ": " + msg.err.Error())
	}
	return t.h.toast("layout " + msg.name)
}

// nextLayout arranges the focused tab in the layout after the one it had
// from this client (the first: even-horizontal).
func (t *tmuxParts) nextLayout() tea.Cmd {
	l, ok := t.h.focusedLayout()
	switch {
	case !ok || t.h.rpc() == nil:
		return t.h.toast("no tab to arrange")
	case t.arranging:
		return t.h.toast("a layout is still being applied")
	case len(l.Panes) < 2:
		return t.h.toast("one pane: nothing to arrange")
	}
	if t.layoutOf == nil {
		t.layoutOf = map[string]int{}
	}
	i, seen := t.layoutOf[l.TabID]
	if seen {
		i = (i + 1) % len(protocol.LayoutPresets)
	}
	t.layoutOf[l.TabID] = i
	name := protocol.LayoutPresets[i]
	t.h.flushInput()
	t.arranging = true
	call, tab := t.h.rpc(), l.TabID
	return func() tea.Msg {
		return layoutDone{name, call("layout.select", protocol.LayoutSelectParams{Layout: name, TabID: &tab}, nil)}
	}
}
