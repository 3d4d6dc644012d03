package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The pane view's mouse: a press on a split's border drags it; a press,
// the wheel and a right click over a pane go to its program when it asked
// for the mouse, else focus it, scroll its history, select, or open its
// menu (menu.go).

// dragMouse follows a split's border being dragged: taken says one was.
func (pv *paneView) dragMouse(ev mouseMsg, g geometry) bool {
	if pv.drag == nil {
		return false
	}
	switch ev.Action {
	case mouseMotion:
		pv.dragTo(ev.X-g.area.X, ev.Y-g.area.Y)
	case mouseRelease:
		pv.drag = nil
	}
	return true
}

func (pv *paneView) dragTo(x, y int) {
	d := pv.drag
	var ratio float64
	if d.dir == "right" {
		ratio = float64(x-d.rect.X+1) / float64(max(d.rect.Width, 1))
	} else {
		ratio = float64(y-d.rect.Y+1) / float64(max(d.rect.Height, 1))
	}
	ratio = min(0.9, max(0.1, ratio))
	if ratio == d.last {
		return
	}
	d.last = ratio
	pv.h.send("layout.set_split_ratio", protocol.LayoutSetSplitRatioParams{Path: d.path, Ratio: &ratio, TabID: &d.tabID})
}

// mouse: the pane area (menu: a right press opens a menu, as the keys'
// mode allows). A press on a split's border drags it;
// otherwise the pane under the pointer takes the event.
func (pv *paneView) mouse(ev mouseMsg, g geometry, menu bool) tea.Cmd {
	l, ok := pv.h.focusedLayout()
	if !ok {
		return nil
	}
	x, y := ev.X-g.area.X, ev.Y-g.area.Y
	if ev.Action == mousePress && ev.Button == tea.MouseLeft && !l.Zoomed {
		if d := grabSplit(l, x, y); d != nil {
			pv.drag = d
			return nil
		}
	}
	for _, p := range l.Panes {
		r := p.Rect
		if l.Zoomed {
			if p.PaneID != l.FocusedPaneID {
				continue
			}
			r = l.Area
		}
		if x >= r.X && y >= r.Y && x < r.X+r.Width && y < r.Y+r.Height {
			return pv.paneMouse(ev, g, l, p.PaneID, r, x, y, menu)
		}
	}
	return nil
}

// paneMouse is an event over pane id, whose frame is r; (x, y) are in
// pane-area cells.
func (pv *paneView) paneMouse(ev mouseMsg, g geometry, l protocol.PaneLayoutSnapshot, id string, r protocol.Rect, x, y int, menu bool) tea.Cmd {
	inside := x > r.X && x < r.X+r.Width-1 && y > r.Y && y < r.Y+r.Height-1
	press := ev.Action == mousePress
	if menu {
		pv.rightPress(ev, g, l, id, inside)
		return nil
	}
	if ev.Ctrl && press && ev.Button == tea.MouseLeft && inside {
		// Ctrl-click on a link: a plugin's link handler, or the browser
		// (link.go), even over a program that takes the mouse.
		return pv.h.clickLink(id, x-r.X-1, y-r.Y-1)
	}
	s := pv.h.screen(id)
	programMouse := s != nil && s.modes.Mouse
	if lines := wheelLines(ev, pv.h.uiConfig().MouseScrollLines); lines != 0 && !programMouse {
		// The program did not ask for the mouse: the wheel scrolls the
		// pane's view through its history.
		pv.h.send("screen.scroll", protocol.ScreenScrollParams{PaneID: id, Lines: lines})
		return nil
	}
	if press && id != l.FocusedPaneID {
		pv.h.send("pane.focus", protocol.PaneTarget{PaneID: id})
		return nil
	}
	// The other buttons, and the right one's drags and release, go to a
	// program that asked for the mouse.
	switch {
	case programMouse:
		if seq := encodeMouse(ev, x-r.X-1, y-r.Y-1, s.modes.MouseSGR); seq != nil {
			pv.h.sendInput(id, seq)
		}
	case press && ev.Button == tea.MouseLeft:
		pv.h.selectPress(id, x-r.X-1, y-r.Y-1)
	}
	return nil
}

// rightPress: right-click menus (menu.go). The frame's is always the
// menu; the inside's may go to the program.
func (pv *paneView) rightPress(ev mouseMsg, g geometry, l protocol.PaneLayoutSnapshot, id string, inside bool) {
	if pass, ok := pv.toProgram(ev, id); ok && inside {
		if id != l.FocusedPaneID {
			pv.h.send("pane.focus", protocol.PaneTarget{PaneID: id})
		}
		pv.pass = &pass
		pv.passRight(ev, g)
		return
	}
	pv.h.openPaneMenu(ev, id)
}

// passMouse sends the drags and the release of a right click that went to
// a program after it: taken says one was going.
func (pv *paneView) passMouse(ev mouseMsg, g geometry) bool {
	if pv.pass == nil {
		return false
	}
	if ev.Action == mouseRelease || ev.Action == mouseMotion && ev.Button == tea.MouseRight {
		pv.passRight(ev, g)
		return true
	}
	pv.pass = nil
	return false
}

// toProgram says whether a right press on pane id's inside goes to its
// program, and which modifiers come off it on the way.
func (pv *paneView) toProgram(ev mouseMsg, id string) (pass rightPass, ok bool) {
	s := pv.h.screen(id)
	if s == nil || !s.modes.Mouse {
		return pass, false // the program did not ask for the mouse: the menu
	}
	if ctrl, alt, set := passthroughMods(pv.h.uiConfig().RightClickPassthroughModifier); set && ev.Ctrl == ctrl && ev.Alt == alt && !ev.Shift {
		return rightPass{paneID: id, ctrl: ctrl, alt: alt}, true
	}
	if !ev.Ctrl && !ev.Alt && !ev.Shift && s.modes.RightClickPane {
		return rightPass{paneID: id}, true
	}
	return pass, false
}

// passRight sends a mouse event of the right-click gesture to its pane.
func (pv *paneView) passRight(ev mouseMsg, g geometry) {
	p := pv.pass
	if ev.Action == mouseRelease {
		pv.pass = nil
	}
	l, _ := pv.h.focusedLayout()
	r, ok := paneInside(l, g, p.paneID)
	s := pv.h.screen(p.paneID)
	if !ok || s == nil || !s.modes.Mouse {
		return
	}
	if p.ctrl {
		ev.Ctrl = false
	}
	if p.alt {
		ev.Alt = false
	}
	if seq := encodeMouse(ev, max(ev.X-r.X, 0), max(ev.Y-r.Y, 0), s.modes.MouseSGR); seq != nil {
		pv.h.sendInput(p.paneID, seq)
	}
}
