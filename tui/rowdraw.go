package tui

import (
	"cmp"
	"slices"

	"github.com/herdr-go/herdr/protocol"
)

// A keystroke's echo changes one row of one pane. Drawing the whole
// canvas for it (every component, then a diff of every cell) cost 70–230
// µs a key; drawChanged redraws only the rows frames changed since the
// last draw, into the canvas the writer keeps, and diffs only those. It
// does so only when nothing but frames' rows changed (any other message
// sets model.whole) and nothing is drawn over the panes; otherwise it
// draws everything, as before.

// dueRow is row y of a pane, changed by a frame since the last draw.
type dueRow struct {
	pane string
	y    int
}

// rowSeg is a changed row where it is on screen: from x, w columns.
type rowSeg struct {
	x, y, w int
	runs    []protocol.ScreenRun
}

// rowsDue is what changed on screen since the last draw: everything
// (whole), or only the rows frames changed (due). The model's draws ask
// it which draw to make.
type rowsDue struct {
	whole bool
	due   []dueRow
	segs  []rowSeg // segments' result, kept for its array
}

// all says the next draw is whole: something other than panes' rows
// changed.
func (r *rowsDue) all() { r.whole = true }

// drawn says the screen is up to date.
func (r *rowsDue) drawn() { r.whole, r.due = false, r.due[:0] }

// frame notes, before frame f is applied to s, what it changes: its
// rows, or the whole view when it changes more than its rows (the pane's
// size, a whole screen, the view offset or history, which its border
// shows too).
func (r *rowsDue) frame(s *paneScreen, f *protocol.ScreenFrame) {
	if f.Full || f.Rows != s.rows || f.Cols != s.cols || f.ViewOffset != s.offset || f.History != s.history || len(s.lines) != s.rows {
		r.whole = true
		return
	}
	if r.whole {
		return // drawn whole anyway
	}
	for _, l := range f.Lines {
		r.due = append(r.due, dueRow{pane: f.PaneID, y: l.Y})
	}
}

// segments places the due rows on screen (place: where a pane's rows
// are, 0 rows for one not drawn), top to bottom as a whole frame writes
// them, each once, and takes them as drawn.
func (r *rowsDue) segments(screens map[string]*paneScreen, place func(id string) (x, y, w, h int)) []rowSeg {
	segs := r.segs[:0]
	for i, d := range r.due {
		if i > 0 && d == r.due[i-1] {
			continue
		}
		s := screens[d.pane]
		if s == nil || d.y < 0 || d.y >= len(s.lines) {
			continue
		}
		x, y, w, h := place(d.pane)
		if d.y >= h {
			continue // not on screen: clipped, or a pane not drawn
		}
		segs = append(segs, rowSeg{x: x, y: y + d.y, w: w, runs: s.lines[d.y]})
	}
	slices.SortFunc(segs, func(a, b rowSeg) int { return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.x, b.x)) })
	segs = slices.CompactFunc(segs, func(a, b rowSeg) bool { return a.y == b.y && a.x == b.x })
	r.segs, r.due = segs, r.due[:0]
	return segs
}

// drawChanged brings the outer terminal up to date: by the rows that
// changed when nothing else did and nothing is drawn over the panes,
// else by a whole draw.
func (m *model) drawChanged() {
	prev := m.sw.prev
	if m.rows.whole || prev == nil || prev.w != m.width || prev.h != m.height || m.title != m.sentTitle || !m.panesOnTop() {
		m.draw()
		return
	}
	segs := m.rows.segments(m.screens, m.paneContent)
	extra := m.toHost
	m.toHost = nil
	b := m.sw.frameRows(segs, m.hostCursor(), extra, m.gfx.bytes(false))
	if len(b) > 0 {
		_, _ = m.term.Write(b)
	}
}

// panesOnTop reports whether the panes are the top layer: no mode, popup,
// board, toast, notice, selection or drawn cursor puts anything over them
// (canvas draws those after the panes).
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
	r, ok := paneInside(l, m.geometry(), id)
	// Its box, clipped to the window as paneView.draw clips it.
	bx, by := r.X-1, r.Y-1
	bw, bh := min(r.W+2, m.width-bx), min(r.H+2, m.height-by)
	if !ok || bw <= 2 || bh <= 2 || bx < 0 || by < 0 {
		return 0, 0, 0, 0
	}
	return r.X, r.Y, bw - 2, bh - 2
}

// frameRows is frame for a canvas that differs from the last one only in
// the rows segs cover (sorted by row): each such row is copied from the
// last canvas, its segments blanked and drawn again, written where it
// differs, and kept.
func (w *screenWriter) frameRows(segs []rowSeg, cur hostCursor, extra, over []byte) []byte {
	b := &w.buf
	b.Reset()
	c := w.prev
	b.WriteString("\x1b[?2026h")
	start := b.Len()
	f := frameWrite{w: w}
	if cap(w.row.cells) < c.w {
		w.row.cells = make([]cell, c.w)
	}
	row := &w.row
	row.w, row.h, row.cells = c.w, 1, row.cells[:c.w]
	for i := 0; i < len(segs); {
		y := segs[i].y
		old := c.cells[y*c.w : (y+1)*c.w]
		copy(row.cells, old)
		for ; i < len(segs) && segs[i].y == y; i++ {
			sg := &segs[i]
			blank := row.cells[sg.x : sg.x+sg.w]
			for j := range blank {
				blank[j] = cell{s: " "}
			}
			drawRow(row, sg.x, 0, sg.w, sg.runs)
		}
		f.row(row.cells, old, y)
		copy(old, row.cells)
	}
	return f.end(start, cur, extra, over)
}
