package emulator

import (
	"unicode/utf8"
	"unsafe"

	"github.com/rivo/uniseg"
)

// Attribute bits of a style.
const (
	attrBold uint16 = 1 << iota
	attrDim
	attrItalic
	attrBlink
	attrInverse
	attrHidden
	attrStrike
	attrOverline
)

// Underline styles (SGR 4:n; 4 is single, 21 double).
const (
	underNone uint8 = iota
	underSingle
	underDouble
	underCurly
	underDotted
	underDashed
)

// color is a packed colour: the top byte is the kind, the low 24 bits the
// value (palette index or 0xRRGGBB).
type color uint32

const (
	colorDefault  color = 0
	colorIndexed  color = 1 << 24
	colorRGB      color = 2 << 24
	colorKindMask color = 0xff << 24
)

func indexedColor(i int) color   { return colorIndexed | color(i&0xff) }
func rgbColor(r, g, b int) color { return colorRGB | color((r&0xff)<<16|(g&0xff)<<8|(b&0xff)) }

// style is the full rendition of a cell. Cells never store it directly: they
// store an id into the terminal's styleTable.
type style struct {
	fg, bg, ul color  // ul: underline colour (SGR 58)
	link       uint16 // hyperlink id (OSC 8) in the terminal's linkTable; 0: none
	attrs      uint16
	under      uint8 // underline style, underNone..underDashed
}

func (s style) withoutLink() style {
	s.link = 0
	return s
}

// Cell flags.
const (
	cellWide uint8 = 1 << iota // first half of a wide (2-column) character
	cellCont                   // second half (continuation) of a wide character
	cellComb                   // has combining marks stored in line.comb
	cellPad                    // blank left by a wide char that wrapped; dropped when unwrapping
)

// cell is one grid cell. ch == 0 means blank (reads as a space).
type cell struct {
	ch    rune
	style uint16
	flags uint8
}

func (c cell) blank() bool { return (c.ch == 0 || c.ch == ' ') && c.flags&(cellCont|cellComb) == 0 }

// line is one row of a screen. len(cells) is always the screen width.
type line struct {
	cells []cell
	// hi bounds the used part of the line: every cell at index >= hi is
	// the zero cell. It keeps clearing and scrollback trimming O(used).
	// An int32 (a width fits: maxCols) packs it with wrapped, so a line
	// record takes 48 bytes, not 56 (a 64-byte allocation class).
	hi      int32
	wrapped bool // soft-wrapped: continues on the next row
	// plain counts the leading cells known to be printable ASCII in the
	// default style (printRun keeps it; damage and fill lower it), so
	// pushing the line to scrollback copies them without checking each.
	// A uint16 (a width fits: maxCols) sits in wrapped's padding.
	plain uint16
	comb  map[int]string // combining marks by column (rare, nil if none)
	// ver is the line's content version (Terminal.damage): a line whose
	// ver is unchanged reads the same; 0 is a line never written.
	ver uint64
}

func newLine(cols int, st uint16) *line {
	l := &line{cells: make([]cell, cols)}
	if st != 0 {
		l.fill(0, cols, st)
	}
	return l
}

// maxCols is the widest a terminal gets (see clampSize).
const maxCols = 65535

// blankCells backs the rows of a screen that nothing has written yet: a
// 200×50 grid is 80 kB, and an idle pane's screen is mostly blank. Such a
// line reads as blank through this shared array and takes cells of its own
// (own) before its first write, so the array stays all zero. Its pages are
// never written, so they cost no memory.
var blankCells [maxCols]cell

// blankLine returns a blank line of cols cells that shares blankCells.
func blankLine(cols int) *line {
	return &line{cells: blankCells[:cols:cols]}
}

// shared reports whether the line still reads through blankCells.
func (l *line) shared() bool {
	return cap(l.cells) > 0 && unsafe.SliceData(l.cells) == &blankCells[0]
}

// own gives the line cells of its own; every write to cells comes after it.
func (l *line) own() {
	if l.shared() {
		l.cells = make([]cell, len(l.cells))
	}
}

// fill blanks cells [from, to) with style st.
func (l *line) fill(from, to int, st uint16) {
	if from < 0 {
		from = 0
	}
	if to > len(l.cells) {
		to = len(l.cells)
	}
	if from >= to {
		return
	}
	if int(l.plain) > from {
		l.plain = uint16(from)
	}
	if st == 0 {
		if hi := int(l.hi); to > hi {
			to = hi
		}
		if from < to {
			clear(l.cells[from:to])
		}
		if hi := int(l.hi); to >= hi && from < hi {
			l.hi = int32(from)
		}
	} else {
		l.own()
		c := l.cells[from:to]
		blank := cell{style: st}
		for i := range c {
			c[i] = blank
		}
		l.touch(to)
	}
	if l.comb != nil {
		for k := range l.comb {
			if k >= from && k < to {
				delete(l.comb, k)
			}
		}
	}
}

// touch records that cells below end may be non-zero.
func (l *line) touch(end int) {
	if end > int(l.hi) {
		l.hi = int32(end)
	}
}

// reset blanks the whole line and clears its wrap flag.
func (l *line) reset(st uint16) {
	l.fill(0, len(l.cells), st)
	l.wrapped = false
	l.comb = nil
}

// resize sets the width of the line, keeping content that fits.
func (l *line) resize(cols int) {
	if l.shared() {
		l.cells = blankCells[:cols:cols]
		return
	}
	if cols <= cap(l.cells) {
		old := len(l.cells)
		l.cells = l.cells[:cols]
		for i := old; i < cols; i++ {
			l.cells[i] = cell{}
		}
	} else {
		n := make([]cell, cols)
		copy(n, l.cells)
		l.cells = n
	}
	if int(l.hi) > cols {
		l.hi = int32(cols)
	}
	if int(l.plain) > cols {
		l.plain = uint16(cols)
	}
	if cols > 0 && l.cells[cols-1].flags&cellWide != 0 {
		// A wide character cut in half by the new width.
		l.cells[cols-1] = cell{style: l.cells[cols-1].style}
	}
	for k := range l.comb {
		if k >= cols {
			delete(l.comb, k)
		}
	}
	if len(l.comb) == 0 {
		l.comb = nil
	}
}

// addComb attaches a combining mark to column x.
func (l *line) addComb(x int, r rune) {
	l.own()
	if l.comb == nil {
		l.comb = make(map[int]string)
	}
	l.comb[x] += string(r)
	l.cells[x].flags |= cellComb
}

// shiftComb moves combining marks for cells moved by ICH/DCH: columns in
// [from, end) move by delta; columns that land outside [from, end) are
// dropped.
func (l *line) shiftComb(from, end, delta int) {
	if l.comb == nil {
		return
	}
	moved := make(map[int]string, len(l.comb))
	for k, v := range l.comb {
		if k < from || k >= end {
			moved[k] = v
			continue
		}
		nk := k + delta
		if nk >= from && nk < end {
			moved[nk] = v
		}
	}
	l.comb = moved
}

// screen is a grid of rows.
type screen struct {
	lines []*line
	// blank is the record every row of the screen shares until its first
	// write: an idle pane's screen is mostly rows nothing ever wrote, and
	// a record each (48 bytes) was most of what its grid cost. A row is
	// written only through at, which gives it a record of its own first.
	// Reads need no care: the record reads as a blank row. Damage may
	// give it a new version (every sharing row then reads as changed,
	// which costs a reader a look and never hides a change).
	blank line
	// window is the array lines slides along when the screen scrolls
	// up (scroll_window.go); lines may be elsewhere after a resize.
	window struct {
		rows []*line
		off  int
	}
}

// newScreen returns a blank screen: every row shares its blank record.
func newScreen(cols, rows int) *screen {
	s := &screen{lines: make([]*line, rows)}
	s.blank.cells = blankCells[:cols:cols]
	for i := range s.lines {
		s.lines[i] = &s.blank
	}
	return s
}

// at returns row y to be written, giving it a record of its own if it
// still shares the blank one.
func (s *screen) at(y int) *line {
	if l := s.lines[y]; l != &s.blank {
		return l
	}
	return s.own(y)
}

// own gives row y, which shares the blank record, one of its own: blank
// (its cells still shared with blankCells until line.own) and at the
// same version, so it reads exactly as before. Not inlined: at, inlined
// in the print loops, stays a compare and a load.
//
//go:noinline
func (s *screen) own(y int) *line {
	l := &line{cells: s.blank.cells, ver: s.blank.ver}
	s.lines[y] = l
	return l
}

// rowsAt is at for rows [from, to): the rows, each with a record of its
// own.
func (s *screen) rowsAt(from, to int) []*line {
	for y := from; y < to; y++ {
		if s.lines[y] == &s.blank {
			s.own(y)
		}
	}
	return s.lines[from:to]
}

// blankRow returns a row sharing the blank record, which it first makes
// cols wide: for rows a resize adds.
func (s *screen) blankRow(cols int) *line {
	s.setCols(cols)
	return &s.blank
}

// setCols sets the width of the blank record.
func (s *screen) setCols(cols int) {
	s.blank.cells = blankCells[:cols:cols]
}

// widthCache is a direct-mapped cache of rune widths for non-ASCII runes.
type widthCache struct {
	keys [1024]rune
	vals [1024]int8
}

// runeWidth returns the number of columns r occupies: 0 for combining and
// other zero-width marks, 2 for East Asian wide characters and emoji
// presentation, 1 otherwise.
func (wc *widthCache) runeWidth(r rune) int {
	if r < 0x300 {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return 0
		}
		return 1
	}
	i := int(r) & (len(wc.keys) - 1)
	if wc.keys[i] == r {
		return int(wc.vals[i])
	}
	w := computeWidth(r)
	wc.keys[i] = r
	wc.vals[i] = int8(w)
	return w
}

func computeWidth(r rune) int {
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], r)
	w := uniseg.StringWidth(unsafe.String(&buf[0], n))
	if w > 2 {
		w = 2
	}
	return w
}
