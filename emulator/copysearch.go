package emulator

import (
	"bytes"
	"regexp"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Copy-mode search over the whole text (text.go). The text is searched a
// line at a time, a line being rows joined where they soft-wrapped, less
// its trailing blanks: a match may run over a wrap but never over the end
// of a line. A match begins and ends on whole characters (a query that
// would split a character from its combining marks does not match there).
// Matches do not overlap: the next one is looked for after the end of the
// last.

// CaseSensitive is the smart-case rule of copy-mode search, as Herdr's:
// a query with an upper-case letter matches case exactly, any other
// ignores case.
func CaseSensitive(query string) bool {
	for _, r := range query {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// textSpan maps the bytes of one character of a search line to its cells.
type textSpan struct {
	from, to int // bytes [from, to) of the line
	row      int
	col, end int
}

// lineSeg is one row's part of a search line. A plain row (printable
// ASCII only, one byte a cell: most scrollback lines, whose stored bytes
// are their text) maps byte from+i to column i and needs no spans.
type lineSeg struct {
	from, row int
	plain     bool
	spans     []textSpan // of a row that is not plain
}

// searchLine is one line of the text being searched.
type searchLine struct {
	text  []byte
	segs  []lineSeg
	spans []textSpan // storage of the segs' spans
}

// plainRow returns the stored bytes of scrollback row i when they are its
// text, one printable ASCII byte a cell.
func (t *Terminal) plainRow(i int) ([]byte, bool) {
	if i >= t.historyRows() {
		return nil, false
	}
	r := t.sb.at(i)
	if r.hasComb {
		return nil, false
	}
	b := t.sb.data(r)
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return nil, false
		}
	}
	return b[:min(len(b), t.cols)], true
}

// SearchText returns every match of query in the text, in order. With
// caseSensitive false, case is ignored (Unicode simple folding).
func (t *Terminal) SearchText(query string, caseSensitive bool) []TextRange {
	if query == "" {
		return nil
	}
	find := matcher(query, caseSensitive)
	var (
		out  []TextRange
		line searchLine
		buf  []cell
	)
	rows := t.TextRows()
	for y := 0; y < rows; y++ {
		wrapped := false
		if b, ok := t.plainRow(y); ok {
			line.segs = append(line.segs, lineSeg{from: len(line.text), row: y, plain: true})
			line.text = append(line.text, b...)
			if wrapped = t.sb.at(y).wrapped; wrapped {
				// The blanks trimmed off when it was stored are part of the line.
				for k := len(b); k < t.cols; k++ {
					line.text = append(line.text, ' ')
				}
			}
		} else {
			r := t.textRow(y, buf)
			buf = r.cells[:0]
			first := len(line.spans)
			for x, c := range r.cells {
				if spacer(c) {
					continue
				}
				from := len(line.text)
				line.text = appendCellText(line.text, &r, x)
				line.spans = append(line.spans, textSpan{from: from, to: len(line.text), row: y, col: x, end: cellEnd(r.cells, x)})
			}
			line.segs = append(line.segs, lineSeg{row: y, spans: line.spans[first:len(line.spans):len(line.spans)]})
			if first < len(line.spans) {
				line.segs[len(line.segs)-1].from = line.spans[first].from
			} else {
				line.segs[len(line.segs)-1].from = len(line.text)
			}
			wrapped = r.wrapped
		}
		if !wrapped || y == rows-1 {
			// The line less its trailing blanks.
			n := len(line.text)
			for n > 0 && (line.text[n-1] == ' ' || line.text[n-1] == '\t') {
				n--
			}
			out = find(out, line.text[:n], &line)
			line.text, line.segs, line.spans = line.text[:0], line.segs[:0], line.spans[:0]
		}
	}
	return out
}

// seg returns the segment holding byte b of the line.
func (l *searchLine) seg(b int) *lineSeg {
	i := sort.Search(len(l.segs), func(i int) bool { return l.segs[i].from > b }) - 1
	return &l.segs[max(i, 0)]
}

// startPoint is the cell whose character starts at byte b.
func (l *searchLine) startPoint(b int) (TextPoint, bool) {
	s := l.seg(b)
	if s.plain {
		return TextPoint{s.row, b - s.from}, true
	}
	i, ok := spanStarting(s.spans, b)
	if !ok {
		return TextPoint{}, false
	}
	return TextPoint{s.row, s.spans[i].col}, true
}

// endPoint is the last cell of the character that ends at byte b
// (exclusive).
func (l *searchLine) endPoint(b int) (TextPoint, bool) {
	s := l.seg(b - 1)
	if s.plain {
		return TextPoint{s.row, b - 1 - s.from}, true
	}
	i, ok := spanEnding(s.spans, b)
	if !ok {
		return TextPoint{}, false
	}
	return TextPoint{s.row, s.spans[i].end}, true
}

// findFunc appends the matches in one line.
type findFunc func(out []TextRange, text []byte, line *searchLine) []TextRange

// matcher returns the search for query: plain bytes when case counts, the
// line folded to lower case in a buffer of its own when only ASCII case
// is to be ignored (same length, so offsets still map to cells), and a
// case-folding regular expression otherwise.
func matcher(query string, caseSensitive bool) findFunc {
	ascii := true
	for i := 0; i < len(query); i++ {
		if query[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	switch {
	case caseSensitive:
		q := []byte(query)
		return func(out []TextRange, text []byte, line *searchLine) []TextRange {
			return indexAll(out, text, q, line)
		}
	case ascii:
		q := bytes.ToLower([]byte(query))
		var folded []byte
		return func(out []TextRange, text []byte, line *searchLine) []TextRange {
			folded = append(folded[:0], text...)
			for i, c := range folded {
				if c >= 'A' && c <= 'Z' {
					folded[i] = c + 'a' - 'A'
				}
			}
			return indexAll(out, folded, q, line)
		}
	default:
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(query))
		return func(out []TextRange, text []byte, line *searchLine) []TextRange {
			for _, m := range re.FindAllIndex(text, -1) {
				out = appendMatch(out, m[0], m[1], line)
			}
			return out
		}
	}
}

// indexAll appends the matches of q in hay (the line's text, or its text
// folded).
func indexAll(out []TextRange, hay, q []byte, line *searchLine) []TextRange {
	for off := 0; off+len(q) <= len(hay); {
		i := bytes.Index(hay[off:], q)
		if i < 0 {
			break
		}
		from := off + i
		out = appendMatch(out, from, from+len(q), line)
		off = from + len(q)
	}
	return out
}

// appendMatch appends the match of bytes [from, to) when both ends fall
// on character boundaries.
func appendMatch(out []TextRange, from, to int, line *searchLine) []TextRange {
	a, ok := line.startPoint(from)
	if !ok {
		return out
	}
	b, ok := line.endPoint(to)
	if !ok {
		return out
	}
	return append(out, TextRange{Start: a, End: b})
}

func spanStarting(spans []textSpan, from int) (int, bool) {
	lo, hi := 0, len(spans)
	for lo < hi {
		m := (lo + hi) / 2
		if spans[m].from < from {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(spans) && spans[lo].from == from
}

func spanEnding(spans []textSpan, to int) (int, bool) {
	lo, hi := 0, len(spans)
	for lo < hi {
		m := (lo + hi) / 2
		if spans[m].to < to {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(spans) && spans[lo].to == to
}

// SearchCurrent picks the match a search moving in direction (forward
// unless backward) lands on, from cursor or, when the caller is on a
// match (previous), from that match so that it is skipped: forward, the
// first match starting after it, else the first of all; backward, the
// last match ending before it, else the last of all. It returns -1 when
// there is no match.
func SearchCurrent(matches []TextRange, backward bool, cursor TextPoint, previous *TextRange) int {
	if len(matches) == 0 {
		return -1
	}
	if !backward {
		origin := cursor
		if previous != nil {
			origin = previous.End
		}
		for i, m := range matches {
			if origin.Less(m.Start) {
				return i
			}
		}
		return 0
	}
	origin := cursor
	if previous != nil {
		origin = previous.Start
	}
	for i := len(matches) - 1; i >= 0; i-- {
		if matches[i].End.Less(origin) {
			return i
		}
	}
	return len(matches) - 1
}
