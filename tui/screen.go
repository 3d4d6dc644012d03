package tui

import (
	"github.com/herdr-go/herdr/protocol"
)

// paneScreen is the client's copy of one pane's screen, kept up to date by
// screen.frame lines.
type paneScreen struct {
	cols, rows int
	lines      [][]protocol.ScreenRun
	cursor     protocol.ScreenCursor
	modes      protocol.ScreenModes
	offset     int // lines the pane's view is scrolled back (screen.scroll)
	history    int // lines of history the pane keeps (0: none, or a server that does not say)
	seq        uint64
}

// apply folds a frame into the screen.
func (s *paneScreen) apply(f *protocol.ScreenFrame) {
	if f.Full || f.Rows != s.rows || f.Cols != s.cols {
		lines := make([][]protocol.ScreenRun, f.Rows)
		if !f.Full {
			copy(lines, s.lines)
		}
		s.lines = lines
	}
	s.cols, s.rows = f.Cols, f.Rows
	for _, l := range f.Lines {
		if l.Y >= 0 && l.Y < len(s.lines) {
			s.lines[l.Y] = l.Runs
		}
	}
	s.cursor, s.modes, s.seq, s.offset, s.history = f.Cursor, f.Modes, f.Seq, f.ViewOffset, f.History
}

// text returns row y as plain text (for tests and titles).
func (s *paneScreen) text(y int) string {
	if y < 0 || y >= len(s.lines) {
		return ""
	}
	var b []rune
	col := 0
	for _, r := range s.lines[y] {
		for col < r.X {
			b = append(b, ' ')
			col++
		}
		b = append(b, []rune(r.Text)...)
		col += r.W
	}
	return string(b)
}

// drawInto paints the screen into the canvas rectangle (x, y, w, h),
// clipping what does not fit.
func (s *paneScreen) drawInto(c *canvas, x, y, w, h int) {
	for row := 0; row < h && row < len(s.lines); row++ {
		drawRow(c, x, y+row, w, s.lines[row])
	}
}

// drawRow paints one row's runs from (x, y), at most w columns.
func drawRow(c *canvas, x, y, w int, runs []protocol.ScreenRun) {
	for _, r := range runs {
		if r.X >= w {
			continue
		}
		c.text(x+r.X, y, r.Text, min(r.W, w-r.X), styleOf(r.Style))
	}
}

// styleOf converts a wire style.
func styleOf(s *protocol.ScreenStyle) cellStyle {
	if s == nil {
		return cellStyle{}
	}
	return cellStyle{fg: parseColor(s.Fg), bg: parseColor(s.Bg), attrs: s.Attrs, under: uint8(s.Under), ul: parseColor(s.UnderColor)}
}
