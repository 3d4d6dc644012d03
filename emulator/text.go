package emulator

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// The copy-mode text: the kept scrollback followed by the screen, one row
// per terminal line (protocol 22's pane text). Row 0 is the oldest kept
// scrollback line and the screen's top row is row ScrollbackLines(); on
// the alternate screen, which has no history, the text is the screen
// alone. Columns are cells. Every row reads as ScreenCols wide: scrollback
// lines are stored trimmed and are padded back with blanks here (and cut
// to the width, as the scrolled view shows them).
//
// The text moves when the pane prints; Revision is bumped by every Write
// that changed something and by Resize, so a caller holding points keeps
// the revision they came from and asks again when it moved.

// TextPoint is one cell of the copy-mode text.
type TextPoint struct{ Row, Col int }

// TextRange runs from Start to End, both cells included.
type TextRange struct{ Start, End TextPoint }

// Less orders points by row, then column.
func (p TextPoint) Less(q TextPoint) bool {
	return p.Row < q.Row || p.Row == q.Row && p.Col < q.Col
}

// TextRows is how many rows the copy-mode text has.
func (t *Terminal) TextRows() int { return t.historyRows() + t.rows }

// historyRows is how many scrollback rows sit above the active screen in
// the text (none on the alternate screen).
func (t *Terminal) historyRows() int {
	if t.scr != t.primary {
		return 0
	}
	return t.sb.len()
}

// noStyle drops what a scrollback line's styles say: the text needs none.
func noStyle(style, string) uint16 { return 0 }

// textRow is one row of the text as cells, ScreenCols of them.
type textRow struct {
	cells   []cell
	comb    map[int]string
	wrapped bool
}

// textRow reads row i (0 <= i < TextRows) into buf's storage.
func (t *Terminal) textRow(i int, buf []cell) textRow {
	h := t.historyRows()
	if i >= h {
		l := t.scr.lines[i-h]
		return textRow{cells: l.cells, comb: l.comb, wrapped: l.wrapped}
	}
	r := t.sb.at(i)
	cells := t.sb.decode(buf[:0], r, t.cols, noStyle)
	if n := len(cells); n > 0 && cells[n-1].flags&cellWide != 0 && n == t.cols {
		// A wide character cut by the width reads as a blank.
		cells[n-1] = cell{}
	}
	for len(cells) < t.cols {
		cells = append(cells, cell{})
	}
	return textRow{cells: cells, comb: t.sb.comb(i), wrapped: r.wrapped}
}

// appendCellText appends the text of cell x of r: a blank reads as a
// space, a character with its combining marks.
func appendCellText(b []byte, r *textRow, x int) []byte {
	c := r.cells[x]
	if c.ch == 0 {
		return append(b, ' ')
	}
	if c.ch < utf8.RuneSelf {
		b = append(b, byte(c.ch))
	} else {
		b = utf8.AppendRune(b, c.ch)
	}
	if c.flags&cellComb != 0 && r.comb != nil {
		b = append(b, r.comb[x]...)
	}
	return b
}

// spacer reports whether a cell is no character of its own: the second
// half of a wide character, or the blank a wide character that wrapped
// left at the end of the row above it.
func spacer(c cell) bool { return c.flags&(cellCont|cellPad) != 0 }

// cellEnd is the last column of the character starting at x.
func cellEnd(cells []cell, x int) int {
	if cells[x].flags&cellWide != 0 && x+1 < len(cells) {
		return x + 1
	}
	return x
}

// clampPoint puts p inside the text, on the first column of the character
// it falls on.
func (t *Terminal) clampPoint(p TextPoint, r *textRow) TextPoint {
	p.Col = clamp(p.Col, 0, len(r.cells)-1)
	if r.cells[p.Col].flags&cellCont != 0 && p.Col > 0 {
		p.Col--
	}
	return p
}

// ReadText returns the text from a to b (either may come first), both
// cells included: rows are joined by a newline unless the first of them
// soft-wrapped onto the next, and trailing blanks of a row that ends a
// line are left out. Points outside the text are clamped into it.
func (t *Terminal) ReadText(a, b TextPoint) string {
	if b.Less(a) {
		a, b = b, a
	}
	last := t.TextRows() - 1
	a.Row, b.Row = clamp(a.Row, 0, last), clamp(b.Row, 0, last)
	var out []byte
	var buf []cell
	for y := a.Row; y <= b.Row; y++ {
		r := t.textRow(y, buf)
		buf = r.cells[:0]
		from, to := 0, len(r.cells)-1
		if y == a.Row {
			from = t.clampPoint(TextPoint{y, a.Col}, &r).Col
		}
		if y == b.Row {
			to = cellEnd(r.cells, t.clampPoint(TextPoint{y, b.Col}, &r).Col)
		}
		start := len(out)
		for x := from; x <= to; x++ {
			if !spacer(r.cells[x]) {
				out = appendCellText(out, &r, x)
			}
		}
		joined := r.wrapped && y < b.Row
		if !joined {
			out = out[:start+len(bytes.TrimRightFunc(out[start:], unicode.IsSpace))]
			if y < b.Row {
				out = append(out, '\n')
			}
		}
	}
	return string(out)
}

// rowBlank reports whether row r shows nothing but blanks.
func rowBlank(r *textRow) bool {
	for x, c := range r.cells {
		if spacer(c) {
			continue
		}
		if c.ch != 0 && !unicode.IsSpace(c.ch) || c.flags&cellComb != 0 && r.comb[x] != "" {
			return false
		}
	}
	return true
}
