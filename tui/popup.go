package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// The session's popup (plugin.pane.open with placement popup): a terminal
// the server owns and this client draws floating over the tab area while
// it is in front. The server says when it opens and closes (client.popup)
// and streams its screen under its terminal id; while it is open, keys
// and mouse go to it (popup.send_text) and the panes under it get none.

// popupMsg carries a client.popup line.
type popupMsg struct{ st protocol.PopupState }

// popupView is the open popup as this client shows it.
type popupView struct {
	st     protocol.PopupState
	screen paneScreen
}

// setPopup follows a client.popup line. Its title is anyone's text (a
// popup.open caller's, a plugin pane's): cleaned like a snapshot's
// strings before it can be drawn.
func (m *model) setPopup(st protocol.PopupState) {
	clean(&st)
	if !st.Open {
		if m.popup != nil && (st.TerminalID == "" || st.TerminalID == m.popup.st.TerminalID) {
			m.popup = nil
			m.dropInput(st.TerminalID)
		}
		return
	}
	if m.popup == nil || m.popup.st.TerminalID != st.TerminalID {
		m.popup = &popupView{st: st}
		m.closeMenu() // the popup takes the keys
	}
}

// dropInput forgets input queued for a terminal that is gone.
func (m *model) dropInput(id string) {
	kept := m.input[:0]
	for _, in := range m.input {
		if in.paneID != id {
			kept = append(kept, in)
		}
	}
	clear(m.input[len(kept):])
	m.input = kept
}

// popupFrame applies a frame of the popup's terminal; false when the
// frame is not the popup's.
func (m *model) popupFrame(f *protocol.ScreenFrame) bool {
	if m.popup == nil || f.PaneID != m.popup.st.TerminalID {
		return false
	}
	m.popup.screen.apply(f)
	return true
}

// popupRects are the popup's frame and its terminal, in window cells: its
// geometry is the server's, in the tab area this client sized.
func (m *model) popupRects() (outer, inner protocol.Rect, ok bool) {
	if m.popup == nil {
		return outer, inner, false
	}
	g := m.geometry()
	outer, inner, ok = protocol.PopupGeometry(m.popup.st.Width, m.popup.st.Height, g.area.Width, g.area.Height)
	outer.X, outer.Y = outer.X+g.area.X, outer.Y+g.area.Y
	inner.X, inner.Y = inner.X+g.area.X, inner.Y+g.area.Y
	return outer, inner, ok
}

// drawPopup paints the popup over everything else: a focused frame with
// its title, its screen inside, the rest of its inside blank.
func (m *model) drawPopup(c *canvas) {
	outer, inner, ok := m.popupRects()
	if !ok {
		return
	}
	c.fill(outer.X, outer.Y, outer.Width, outer.Height, " ", cellStyle{})
	title := m.popup.st.Title
	if title == "" {
		title = "popup"
	}
	m.drawBoxPlain(c, outer.X, outer.Y, outer.Width, outer.Height, " "+title+" ")
	m.popup.screen.drawInto(c, inner.X, inner.Y, inner.Width, inner.Height)
}

// popupCursor is the host cursor at the popup's cursor.
func (m *model) popupCursor() hostCursor {
	_, inner, ok := m.popupRects()
	cur := m.popup.screen.cursor
	if !ok || m.mode != modeTerminal || !cur.Visible || cur.X >= inner.Width || cur.Y >= inner.Height {
		return hostCursor{}
	}
	return hostCursor{x: inner.X + cur.X, y: inner.Y + cur.Y, visible: true, shape: cur.Shape}
}

// popupMouse takes every mouse event while the popup is open: the
// popup's program gets those over its terminal when it asked for the
// mouse; the panes under it get nothing.
func (m *model) popupMouse(ev tea.MouseMsg) tea.Cmd {
	_, inner, ok := m.popupRects()
	if !ok || !m.popup.screen.modes.Mouse {
		return nil
	}
	x, y := ev.X-inner.X, ev.Y-inner.Y
	if x < 0 || y < 0 || x >= inner.Width || y >= inner.Height {
		return nil
	}
	if seq := encodeMouse(ev, x, y, m.popup.screen.modes.MouseSGR); seq != nil {
		m.sendBytes(m.popup.st.TerminalID, seq)
	}
	return nil
}
