package tui

import (
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
			m.input.drop(st.TerminalID)
		}
		return
	}
	if m.popup == nil || m.popup.st.TerminalID != st.TerminalID {
		m.popup = &popupView{st: st}
		m.menus.close() // the popup takes the keys
	}
}

// frame applies a frame of the popup's terminal; false when there is no
// popup or the frame is not its.
func (p *popupView) frame(f *protocol.ScreenFrame) bool {
	if p == nil || f.PaneID != p.st.TerminalID {
		return false
	}
	p.screen.apply(f)
	return true
}

// rects are the popup's frame and its terminal, in window cells: its
// geometry is the server's, in the tab area this client sized.
func (p *popupView) rects(area protocol.Rect) (outer, inner protocol.Rect, ok bool) {
	if p == nil {
		return outer, inner, false
	}
	outer, inner, ok = protocol.PopupGeometry(p.st.Width, p.st.Height, area.Width, area.Height)
	outer.X, outer.Y = outer.X+area.X, outer.Y+area.Y
	inner.X, inner.Y = inner.X+area.X, inner.Y+area.Y
	return outer, inner, ok
}

// draw paints the popup over everything else in the tab area: a focused
// frame with its title, its screen inside, the rest of its inside blank.
func (p *popupView) draw(c *canvas, area protocol.Rect, th *theme) {
	outer, inner, ok := p.rects(area)
	if !ok {
		return
	}
	c.fill(outer.X, outer.Y, outer.Width, outer.Height, " ", cellStyle{})
	title := p.st.Title
	if title == "" {
		title = "popup"
	}
	th.box(c, outer.X, outer.Y, outer.Width, outer.Height, " "+title+" ")
	p.screen.drawInto(c, inner.X, inner.Y, inner.Width, inner.Height)
}

// cursor is the host cursor at the popup's cursor, while the keys go to
// the terminals (keys).
func (p *popupView) cursor(area protocol.Rect, keys bool) hostCursor {
	_, inner, ok := p.rects(area)
	cur := p.screen.cursor
	if !ok || !keys || !cur.Visible || cur.X >= inner.Width || cur.Y >= inner.Height {
		return hostCursor{}
	}
	return hostCursor{x: inner.X + cur.X, y: inner.Y + cur.Y, visible: true, shape: cur.Shape}
}

// mouse is what a mouse event over the popup sends its program: the
// bytes of those over its terminal when it asked for the mouse, else
// none (the panes under it get nothing either).
func (p *popupView) mouse(ev mouseMsg, area protocol.Rect) []byte {
	_, inner, ok := p.rects(area)
	if !ok || !p.screen.modes.Mouse {
		return nil
	}
	x, y := ev.X-inner.X, ev.Y-inner.Y
	if x < 0 || y < 0 || x >= inner.Width || y >= inner.Height {
		return nil
	}
	return encodeMouse(ev, x, y, p.screen.modes.MouseSGR)
}
