package emulator

import "unicode/utf8"

// Snapshot API: a read-only public view of the visible screen, row by row,
// as runs of text that share a style. It is what a multiplexer streams to
// its clients; it never changes the terminal.

// Color is a cell colour: the terminal default, a palette index or RGB.
type Color uint32

// ColorDefault is the terminal's default colour.
const ColorDefault Color = 0

// IsDefault reports whether c is the terminal's default colour.
func (c Color) IsDefault() bool { return color(c)&colorKindMask == colorDefault }

// Indexed returns the palette index of c; ok is false for other kinds.
func (c Color) Indexed() (index uint8, ok bool) {
	if color(c)&colorKindMask != colorIndexed {
		return 0, false
	}
	return uint8(c), true
}

// RGB returns the components of a true colour; ok is false for other kinds.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	if color(c)&colorKindMask != colorRGB {
		return 0, 0, 0, false
	}
	return uint8(c >> 16), uint8(c >> 8), uint8(c), true
}

// IndexedColor returns the palette colour i.
func IndexedColor(i uint8) Color { return Color(indexedColor(int(i))) }

// RGBColor returns a true colour.
func RGBColor(r, g, b uint8) Color { return Color(rgbColor(int(r), int(g), int(b))) }

// Attr is a set of text attributes.
type Attr uint16

// Text attributes.
const (
	AttrBold Attr = 1 << iota
	AttrDim
	AttrItalic
	AttrUnderline
	AttrBlink
	AttrInverse
	AttrHidden
	AttrStrike
)

// Style is the rendition of a run: colours and attributes (hyperlinks,
// underline colour and style variants are left out).
type Style struct {
	Fg, Bg Color
	Attrs  Attr
	// Underline is the underline style (1 single, 2 double, 3 curly, 4
	// dotted, 5 dashed; 0 none, AttrUnderline set when not 0) and
	// UnderlineColor its colour (SGR 58), the default when 0.
	Underline      uint8
	UnderlineColor Color
}

// Run is a stretch of one row whose cells share a style.
type Run struct {
	// Col is the 0-based column of the run's first cell.
	Col int
	// Width is the number of columns the run covers (wide characters
	// count two).
	Width int
	// Text is the run's characters; blank cells read as spaces.
	Text  string
	Style Style
}

// RowSnapshot is one visible row. Trailing default-styled blanks are
// dropped, so a blank row has no runs.
type RowSnapshot struct {
	Runs    []Run
	Wrapped bool
}

// CursorSnapshot is the cursor's position, visibility and shape.
type CursorSnapshot struct {
	Col, Row int
	Visible  bool
	Shape    CursorShape
}

// CursorState returns the cursor as a snapshot.
func (t *Terminal) CursorState() CursorSnapshot {
	// The cursor is hidden while the view is scrolled back (view.go).
	visible := t.modes.CursorVisible && t.ViewOffset() == 0
	return CursorSnapshot{Col: t.x, Row: t.y, Visible: visible, Shape: t.cursorShape}
}

// publicStyle converts an interned style of st.
func publicStyle(st *styleTable, id uint16) Style {
	if id == 0 {
		return Style{}
	}
	s := st.get(id)
	out := Style{Fg: Color(s.fg), Bg: Color(s.bg)}
	bits := [...]struct {
		in  uint16
		out Attr
	}{
		{attrBold, AttrBold}, {attrDim, AttrDim}, {attrItalic, AttrItalic}, {attrBlink, AttrBlink},
		{attrInverse, AttrInverse}, {attrHidden, AttrHidden}, {attrStrike, AttrStrike},
	}
	for _, b := range bits {
		if s.attrs&b.in != 0 {
			out.Attrs |= b.out
		}
	}
	if s.under != underNone {
		out.Attrs |= AttrUnderline
		out.Underline, out.UnderlineColor = s.under, Color(s.ul)
	}
	return out
}

// Rows appends a snapshot of every visible row of the active screen to
// dst[:0] and returns it; passing the previous result back reuses its
// backing array. While the view is scrolled back (view.go) the rows are
// those of the viewport: history lines, then the top of the screen.
func (t *Terminal) Rows(dst []RowSnapshot) []RowSnapshot {
	dst = dst[:0]
	if off := t.ViewOffset(); off > 0 {
		return t.viewRows(dst, off)
	}
	var buf []byte
	for _, l := range t.scr.lines {
		var rs RowSnapshot
		if len(dst) < cap(dst) {
			rs = dst[:len(dst)+1][len(dst)]
			rs.Runs = rs.Runs[:0]
		}
		rs.Wrapped = l.wrapped
		rs.Runs, buf = t.cellRuns(rs.Runs, buf, l.cells, l.comb, &t.styles)
		dst = append(dst, rs)
	}
	return dst
}

// cellRuns splits one line's cells (styles interned in st) into runs,
// dropping trailing default blanks.
func (t *Terminal) cellRuns(runs []Run, buf []byte, cells []cell, comb map[int]string, st *styleTable) ([]Run, []byte) {
	end := len(cells)
	for end > 0 {
		c := cells[end-1]
		if !c.blank() || c.style != 0 || c.flags&cellWide != 0 {
			break
		}
		end--
	}
	start, cur := 0, uint16(0)
	buf = buf[:0]
	flush := func(to int) {
		if to > start {
			runs = append(runs, Run{Col: start, Width: to - start, Text: string(buf), Style: publicStyle(st, cur)})
		}
		buf = buf[:0]
		start = to
	}
	for i := 0; i < end; i++ {
		c := cells[i]
		if c.flags&cellCont != 0 {
			continue // the second half of a wide character
		}
		if c.style != cur {
			flush(i)
			cur = c.style
		}
		ch := c.ch
		if ch == 0 {
			ch = ' '
		}
		if ch < utf8.RuneSelf {
			buf = append(buf, byte(ch))
		} else {
			buf = utf8.AppendRune(buf, ch)
		}
		if c.flags&cellComb != 0 && comb != nil {
			buf = append(buf, comb[i]...)
		}
	}
	flush(end)
	return runs, buf
}
