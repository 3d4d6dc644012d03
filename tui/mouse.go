package tui

import (
	tea "charm.land/bubbletea/v2"
)

// Mouse events go first to a gesture in progress (a popup, a menu, a drag,
// a selection, a right click passed to a program), which takes them
// wherever the pointer is; otherwise to the region under the pointer:
// the sidebar, the tab bar or the pane canvas.

// mouseRegion is a part of the window that owns the clicks inside it.
type mouseRegion int

const (
	regionNone mouseRegion = iota
	regionSidebar
	regionTabBar
	regionCanvas
)

// regionAt is the region under (x, y).
func (m *model) regionAt(g geometry, x, y int) mouseRegion {
	switch {
	case x < g.sidebarW:
		return regionSidebar
	case m.fleet.selected != "":
		return regionNone // the pane area shows a machine's pane: the local tab bar and panes are not there
	case y == g.barY:
		return regionTabBar
	}
	return regionCanvas
}

func (m *model) mouse(ev mouseMsg) tea.Cmd {
	g := m.geometry()
	if ev.Action == mousePress {
		m.claimSize(false)
	}
	if cmd, taken := m.mouseGesture(ev, g); taken {
		return cmd
	}
	if ev.Action == mousePress {
		m.msel.sel = nil
	}
	switch m.regionAt(g, ev.X, ev.Y) {
	case regionSidebar:
		m.side.mouse(ev, g, m.menus.pressOpens(ev))
	case regionTabBar:
		m.tabs.mouse(ev, g, m.menus.pressOpens(ev))
	case regionCanvas:
		return m.panes.mouse(ev, g, m.menus.pressOpens(ev))
	}
	return nil
}

// mouseGesture gives an event to what holds the mouse: an open popup, the
// task dock or board, a menu, or a drag begun by an earlier press. taken
// says it was its.
func (m *model) mouseGesture(ev mouseMsg, g geometry) (tea.Cmd, bool) {
	if m.popup != nil {
		if seq := m.popup.mouse(ev, m.geometry().area); seq != nil {
			m.input.add(m.popup.st.TerminalID, seq)
		}
		return nil, true
	}
	if cmd, ok := m.tasks.mouse(ev, g); ok {
		return cmd, true
	}
	if m.panes.passMouse(ev, g) {
		return nil, true
	}
	if m.menus.eatRelease && ev.Action == mouseRelease {
		m.menus.eatRelease = false
		return nil, true
	}
	if m.menus.open != nil {
		if cmd, done := m.menus.mouse(ev); done {
			return cmd, true
		}
	}
	if m.dragMouse(ev, g) {
		return nil, true
	}
	return m.selectionMouse(ev)
}

// dragMouse moves a split border or the sidebar's while one is dragged.
func (m *model) dragMouse(ev mouseMsg, g geometry) bool {
	if m.panes.dragMouse(ev, g) {
		return true
	}
	if m.side.drag != nil {
		if ev.Action == mouseMotion || ev.Action == mouseRelease {
			m.side.dragSidebar(ev)
			return true
		}
		m.side.drag = nil // a release the terminal never sent
	}
	return false
}

// selectionMouse extends a mouse selection being dragged in a pane.
func (m *model) selectionMouse(ev mouseMsg) (tea.Cmd, bool) {
	s := m.msel.sel
	if s == nil || !s.dragging {
		return nil, false
	}
	l, _ := m.focusedLayout()
	r, ok := paneInside(l, m.geometry(), s.paneID)
	if !ok {
		return nil, false
	}
	switch ev.Action {
	case mouseMotion:
		m.msel.motion(ev.X-r.X, ev.Y-r.Y)
		return nil, true
	case mouseRelease:
		m.msel.motion(ev.X-r.X, ev.Y-r.Y)
		if _, text := m.msel.release(); text != "" && m.copyOnSelect {
			return m.clip.copy(text), true
		}
		return nil, true
	}
	return nil, false
}
