package tui

import (
	"slices"

	"github.com/herdr-go/herdr/protocol"
)

// A keystroke's echo changes one row of one pane. Drawing the whole
// canvas for it (every component, then a diff of every cell) cost 110–230
// µs a key; drawRows redraws only the rows the frame changed, into the
// canvas the writer keeps, and diffs only those. It is taken only when
// nothing else can have changed since the last frame and nothing is drawn
// over the pane; otherwise draw draws everything, as before.

// rowsOnly records, before a frame is applied, whether it can change no
// more than its rows: the pane's size, view offset and history stay (they
// are drawn in its border too) and it is not a whole screen.
func (s *paneScreen) rowsOnly(f *protocol.ScreenFrame) bool {
	return !f.Full && f.Rows == s.rows && f.Cols == s.cols && f.ViewOffset == s.offset && f.History == s.history && len(s.lines) == s.rows
}

// drawRows draws frame f, already applied, by its rows alone; false when
// it cannot (the caller then draws everything).
func (m *model) drawRows(f *protocol.ScreenFrame) bool {
	prev := m.sw.prev
	if prev == nil || prev.w != m.width || prev.h != m.height || m.title != m.sentTitle || !m.panesOnTop() {
		return false
	}
	s := m.screens[f.PaneID]
	x, y, w, h := m.paneContent(f.PaneID)
	if s == nil {
		return false
	}
	ys := m.rowYs[:0]
	for _, l := range f.Lines {
		if l.Y < 0 || l.Y >= h || l.Y >= len(s.lines) {
			continue // clipped: not on screen
		}
		ys = append(ys, y+l.Y)
	}
	slices.Sort(ys) // top to bottom, as a whole frame writes them
	ys = slices.Compact(ys)
	m.rowYs = ys
	extra := m.toHost
	m.toHost = nil
	b := m.sw.frameRows(ys, func(row *canvas, sy int) {
		blank := row.cells[x : x+w]
		for i := range blank {
			blank[i] = cell{s: " "}
		}
		drawRow(row, x, 0, w, s.lines[sy-y])
	}, m.hostCursor(), extra, m.gfx.bytes(false))
	if len(b) > 0 {
		_, _ = m.term.Write(b)
	}
	return true
}

// panesOnTop reports whether the panes are the top layer: no mode, popup,
// board, toast, notice or drawn cursor puts anything over them (canvas
// draws those after the panes).
func (m *model) panesOnTop() bool {
	return m.mode == modeTerminal && m.popup == nil && m.fleet.selected == "" && !m.tasks.board &&
		m.tasks.modal == nil && m.notes.corner == nil && len(m.diags) == 0 && m.toast.text == "" &&
		m.msel.sel == nil && m.ui.HostCursor != "drawn" && m.haveSnap
}

// paneContent is where pane id's rows are on screen, as paneView.draw
// places them: x, y of its first cell, and the columns and rows shown (0
// for a pane not drawn: another tab's, or behind a zoomed one).
func (m *model) paneContent(id string) (x, y, w, h int) {
	l, found := m.focusedLayout()
	if !found {
		return 0, 0, 0, 0
	}
	g := m.geometry()
	for _, p := range l.Panes {
		if p.PaneID != id || l.Zoomed && p.PaneID != l.FocusedPaneID {
			continue
		}
		r := p.Rect
		if l.Zoomed {
			r = l.Area
		}
		bx, by := g.area.X+r.X, g.area.Y+r.Y
		bw, bh := min(r.Width, m.width-bx), min(r.Height, m.height-by)
		if bw <= 2 || bh <= 2 || bx < 0 || by < 0 {
			return 0, 0, 0, 0
		}
		return bx + 1, by + 1, bw - 2, bh - 2
	}
	return 0, 0, 0, 0
}

// frameRows is frame for a canvas that differs from the last one only in
// rows ys: each is copied from the last canvas into a one-row canvas,
// changed by redraw, written where it differs, and kept.
func (w *screenWriter) frameRows(ys []int, redraw func(row *canvas, y int), cur hostCursor, extra, over []byte) []byte {
	b := &w.buf
	b.Reset()
	c := w.prev
	b.WriteString("\x1b[?2026h")
	start := b.Len()
	f := frameWrite{w: w}
	if cap(w.row.cells) < c.w {
		w.row.cells = make([]cell, c.w)
	}
	w.row.w, w.row.h, w.row.cells = c.w, 1, w.row.cells[:c.w]
	for _, y := range ys {
		old := c.cells[y*c.w : (y+1)*c.w]
		copy(w.row.cells, old)
		redraw(&w.row, y)
		f.row(w.row.cells, old, y)
		copy(old, w.row.cells)
	}
	if f.styled {
		b.WriteString("\x1b[0m")
	}
	b.Write(extra)
	if len(over) > 0 {
		f.hide()
		b.Write(over)
	}
	w.placeCursor(cur, f.hidden)
	if b.Len() == start {
		return nil
	}
	b.WriteString("\x1b[?2026l")
	return b.Bytes()
}
