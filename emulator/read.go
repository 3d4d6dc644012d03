package emulator

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Source selects which rows Read returns.
type Source int

const (
	// SourceVisible is the rows of the current viewport.
	SourceVisible Source = iota
	// SourceRecent is the last N rendered rows of scrollback + screen.
	SourceRecent
	// SourceRecentUnwrapped is SourceRecent with soft-wrapped rows joined.
	SourceRecentUnwrapped
	// SourceDetection is the live screen (the bottom rows rows), always plain
	// text; used for agent state detection.
	SourceDetection
)

// String returns the wire name of the source ("visible", "recent",
// "recent_unwrapped", "detection").
func (s Source) String() string {
	switch s {
	case SourceVisible:
		return "visible"
	case SourceRecent:
		return "recent"
	case SourceRecentUnwrapped:
		return "recent_unwrapped"
	case SourceDetection:
		return "detection"
	}
	return "Source(" + strconv.Itoa(int(s)) + ")"
}

// ParseSource is the inverse of Source.String.
func ParseSource(name string) (Source, bool) {
	switch name {
	case "visible":
		return SourceVisible, true
	case "recent":
		return SourceRecent, true
	case "recent_unwrapped":
		return SourceRecentUnwrapped, true
	case "detection":
		return SourceDetection, true
	}
	return 0, false
}

const (
	// DefaultRecentLines is the number of rows SourceRecent returns when
	// ReadOptions.Lines is 0.
	DefaultRecentLines = 80
	// MaxRecentLines caps ReadOptions.Lines for the recent sources.
	MaxRecentLines = 1000
)

// ReadOptions selects what Read returns.
type ReadOptions struct {
	Source Source
	// Lines is the number of rows wanted (the last ones); 0 means the
	// default: all rows for visible/detection, DefaultRecentLines for the
	// recent sources (capped at MaxRecentLines).
	Lines int
	// ANSI reproduces colours and attributes as SGR sequences. Ignored for
	// SourceDetection.
	ANSI bool
	// MaxBytes bounds the text (0: no bound). Past it the oldest rows are
	// left out, whole, and Truncated is set; rows are rendered newest
	// first, so the work stops at the bound too.
	MaxBytes int
}

// ReadResult is the text of a Read.
type ReadResult struct {
	// Text is the rows, each with trailing blanks trimmed, joined by "\n"
	// (no trailing newline).
	Text string
	// Truncated is true when more rows existed than were returned.
	Truncated bool
	// Revision is the terminal revision the text corresponds to.
	Revision uint64
}

// row is a read-only view of one rendered row. Its cells' style ids refer
// to st and links (the terminal's tables for screen rows, a read's own for
// rows decoded from scrollback).
type row struct {
	cells   []cell
	comb    map[int]string
	wrapped bool
	st      *styleTable
	links   *linkTable
}

// Read renders part of the terminal as text.
func (t *Terminal) Read(o ReadOptions) ReadResult {
	res := ReadResult{Revision: t.revision}
	ansi := o.ANSI && o.Source != SourceDetection
	n := o.Lines
	if n < 0 {
		n = 0
	}
	src := readRows{}
	switch o.Source {
	case SourceRecent, SourceRecentUnwrapped:
		if n == 0 {
			n = DefaultRecentLines
		}
		if n > MaxRecentLines {
			n = MaxRecentLines
		}
		screenRows := t.screenRows(ansi)
		sbLen := 0
		if t.scr == t.primary {
			sbLen = t.sb.len()
		}
		total := sbLen + len(screenRows)
		if total > n {
			res.Truncated = true
		}
		first := max(total-n, 0)
		src = readRows{t: t, sbFrom: min(first, sbLen), sbTo: sbLen, screen: screenRows[max(first-sbLen, 0):]}
	default: // visible, detection
		rows := t.screenRows(ansi)
		if n > 0 && len(rows) > n {
			rows = rows[len(rows)-n:]
			res.Truncated = true
		}
		src = readRows{screen: rows}
	}
	unwrap := o.Source == SourceRecentUnwrapped
	if o.MaxBytes > 0 {
		var cut bool
		res.Text, cut = t.renderNewest(&src, ansi, unwrap, o.MaxBytes)
		res.Truncated = res.Truncated || cut
		return res
	}
	rows := src.screen
	if src.sbFrom < src.sbTo {
		rows = append(t.scrollbackRows(src.sbFrom, src.sbTo), rows...)
	}
	res.Text = t.render(rows, ansi, unwrap)
	return res
}

// readRows are the rows of a read: scrollback lines [sbFrom, sbTo), then
// screen rows. A bounded read decodes the scrollback lazily, a block at
// a time from the newest, so rows it leaves out cost nothing.
type readRows struct {
	t            *Terminal
	sbFrom, sbTo int
	screen       []row
	block        []row // decoded scrollback lines [blockFrom, blockFrom+len(block))
	blockFrom    int
}

// readBlock is how many scrollback lines a bounded read decodes at once.
const readBlock = 64

func (s *readRows) len() int { return s.sbTo - s.sbFrom + len(s.screen) }

func (s *readRows) at(i int) row {
	sb := s.sbTo - s.sbFrom
	if i >= sb {
		return s.screen[i-sb]
	}
	j := s.sbFrom + i
	if j < s.blockFrom || j >= s.blockFrom+len(s.block) {
		s.blockFrom = max(s.sbFrom, j+1-readBlock)
		s.block = s.t.scrollbackRows(s.blockFrom, j+1)
	}
	return s.block[j-s.blockFrom]
}

// screenRows returns the rows of the active screen without the trailing
// blank ones.
func (t *Terminal) screenRows(ansi bool) []row {
	lines := t.scr.lines
	end := len(lines)
	for end > 0 && keptCells(row{cells: lines[end-1].cells, st: &t.styles}, ansi) == 0 {
		end--
	}
	rows := make([]row, end)
	for i, l := range lines[:end] {
		rows[i] = row{cells: l.cells, comb: l.comb, wrapped: l.wrapped, st: &t.styles, links: &t.links}
	}
	return rows
}

// maxDecodedCells bounds the cells decoded for one scrollback line.
const maxDecodedCells = 1 << 16

// scrollbackRows decodes scrollback lines [from, to) with styles interned in
// tables of their own.
func (t *Terminal) scrollbackRows(from, to int) []row {
	st := newStyleTable()
	links := &linkTable{}
	intern := func(s style, link string) uint16 {
		s.link = 0
		if link != "" {
			s.link, _ = links.lookup(link)
		}
		id, _ := st.lookup(s)
		return id
	}
	size := 0
	for i := from; i < to; i++ {
		size += int(t.sb.at(i).n) // every cell takes at least one byte
	}
	cells := make([]cell, 0, size)
	ends := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		cells = t.sb.decode(cells, t.sb.at(i), maxDecodedCells, intern)
		ends = append(ends, len(cells))
	}
	rows := make([]row, 0, to-from)
	start := 0
	for k, i := 0, from; i < to; k, i = k+1, i+1 {
		r := t.sb.at(i)
		rows = append(rows, row{cells: cells[start:ends[k]:ends[k]], comb: t.sb.comb(i), wrapped: r.wrapped, st: &st, links: links})
		start = ends[k]
	}
	return rows
}

// keptCells returns how many leading cells of r survive trailing-blank
// trimming. In ANSI mode blanks with a visible background are kept.
func keptCells(r row, ansi bool) int {
	cells := r.cells
	n := len(cells)
	for n > 0 {
		c := cells[n-1]
		if !c.blank() {
			break
		}
		if ansi && c.style != 0 {
			s := r.st.get(c.style)
			if s.bg != colorDefault || s.attrs&attrInverse != 0 {
				break
			}
		}
		n--
	}
	return n
}

func (t *Terminal) render(rows []row, ansi, unwrap bool) string {
	size := 0
	for _, r := range rows {
		size += len(r.cells) + 1
	}
	b := make([]byte, 0, size)
	for i, r := range rows {
		joined := unwrap && r.wrapped && i+1 < len(rows)
		n := len(r.cells)
		if !joined {
			n = keptCells(r, ansi)
		}
		b = t.renderCells(b, r, n, ansi)
		if !joined && i+1 < len(rows) {
			b = append(b, '\n')
		}
	}
	return string(b)
}

// renderNewest is render bounded to max bytes: it renders rows from the
// last one back (each row opens and closes its own SGR state, so the order
// changes nothing) until the next would not fit, and joins the rows kept
// in order. Unwrapped, a line whose first rows did not fit is left out
// whole.
func (t *Terminal) renderNewest(rows *readRows, ansi, unwrap bool, max int) (string, bool) {
	count := rows.len()
	var b []byte
	type span struct{ start, end int }
	spans := make([]span, count) // row i's bytes in b, its newline not included
	wrapped := make([]bool, count)
	newline := func(i int) bool { return !(unwrap && wrapped[i]) && i+1 < count }
	first, total, cut := count, 0, false
	for i := count - 1; i >= 0; i-- {
		r := rows.at(i)
		wrapped[i] = r.wrapped
		n := len(r.cells)
		if !unwrap || !r.wrapped || i+1 == count {
			n = keptCells(r, ansi)
		}
		start := len(b)
		b = t.renderCells(b, r, n, ansi)
		size := len(b) - start
		if newline(i) {
			size++
		}
		if total+size > max {
			b, cut = b[:start], true
			break
		}
		spans[i] = span{start, len(b)}
		total += size
		first = i
	}
	// The row before the first kept one was rendered (and did not fit), so
	// its wrapped flag is known.
	for cut && unwrap && first < count && first > 0 && wrapped[first-1] {
		total -= spans[first].end - spans[first].start
		if newline(first) {
			total--
		}
		first++
	}
	var out strings.Builder
	out.Grow(total)
	for i := first; i < count; i++ {
		out.Write(b[spans[i].start:spans[i].end])
		if newline(i) {
			out.WriteByte('\n')
		}
	}
	return out.String(), cut
}

func (t *Terminal) renderCells(b []byte, r row, n int, ansi bool) []byte {
	var cur, curLink uint16
	for i, c := range r.cells[:n] {
		if c.flags&cellCont != 0 || (c.flags&cellPad != 0 && r.wrapped) {
			continue
		}
		if ansi && c.style != cur {
			s := r.st.get(c.style)
			if s.link != curLink {
				b = appendLink(b, r.links.get(s.link))
				curLink = s.link
			}
			s.link = 0
			if s != r.st.get(cur).withoutLink() {
				b = appendSGR(b, s)
			}
			cur = c.style
		}
		ch := c.ch
		if ch == 0 {
			ch = ' '
		}
		if ch < utf8.RuneSelf {
			b = append(b, byte(ch))
		} else {
			b = utf8.AppendRune(b, ch)
		}
		if c.flags&cellComb != 0 && r.comb != nil {
			b = append(b, r.comb[i]...)
		}
	}
	if ansi && curLink != 0 {
		b = appendLink(b, "")
	}
	if ansi && cur != 0 && r.st.get(cur).withoutLink() != (style{}) {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// appendSGR appends a "\x1b[0;...m" sequence that sets exactly s (the
// hyperlink aside: renderCells writes it as OSC 8).
func appendSGR(b []byte, s style) []byte {
	b = append(b, "\x1b[0"...)
	attrs := [...]struct {
		bit  uint16
		code string
	}{
		{attrBold, "1"}, {attrDim, "2"}, {attrItalic, "3"}, {attrBlink, "5"},
		{attrInverse, "7"}, {attrHidden, "8"}, {attrStrike, "9"}, {attrOverline, "53"},
	}
	for _, a := range attrs {
		if s.attrs&a.bit != 0 {
			b = append(b, ';')
			b = append(b, a.code...)
		}
	}
	switch s.under {
	case underNone:
	case underSingle:
		b = append(b, ";4"...)
	default:
		b = append(b, ";4:"...)
		b = append(b, '0'+s.under)
	}
	b = appendColor(b, s.fg, 30, 90, 38)
	b = appendColor(b, s.bg, 40, 100, 48)
	b = appendUnderlineColor(b, s.ul)
	return append(b, 'm')
}

// appendUnderlineColor appends SGR 58 in its colon form ("58:5:n",
// "58:2::r:g:b"), the form terminals that know underline colours parse.
func appendUnderlineColor(b []byte, c color) []byte {
	v := int(c &^ colorKindMask)
	switch c & colorKindMask {
	case colorIndexed:
		b = append(b, ";58:5:"...)
		b = strconv.AppendInt(b, int64(v), 10)
	case colorRGB:
		b = append(b, ";58:2::"...)
		b = strconv.AppendInt(b, int64(v>>16&0xff), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(v>>8&0xff), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(v&0xff), 10)
	}
	return b
}

// appendLink appends the OSC 8 that opens link ("params;URI"), or closes
// the current one when link is "".
func appendLink(b []byte, link string) []byte {
	b = append(b, "\x1b]8;"...)
	if link == "" {
		b = append(b, ';')
	} else {
		b = append(b, link...)
	}
	return append(b, "\x1b\\"...)
}

func appendColor(b []byte, c color, base, bright, ext int) []byte {
	v := int(c &^ colorKindMask)
	switch c & colorKindMask {
	case colorIndexed:
		b = append(b, ';')
		switch {
		case v < 8:
			b = strconv.AppendInt(b, int64(base+v), 10)
		case v < 16:
			b = strconv.AppendInt(b, int64(bright+v-8), 10)
		default:
			b = strconv.AppendInt(b, int64(ext), 10)
			b = append(b, ";5;"...)
			b = strconv.AppendInt(b, int64(v), 10)
		}
	case colorRGB:
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(ext), 10)
		b = append(b, ";2;"...)
		b = strconv.AppendInt(b, int64(v>>16&0xff), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(v>>8&0xff), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(v&0xff), 10)
	}
	return b
}
