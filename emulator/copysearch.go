package emulator

import (
	"bytes"
	"regexp"
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

// searchLine is one line of the text being searched.
type searchLine struct {
	text  []byte
	spans []textSpan
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
	flush := func() {
		// Leave the trailing blanks out.
		n := len(line.spans)
		for n > 0 && bytesBlank(line.text[line.spans[n-1].from:line.spans[n-1].to]) {
			n--
		}
		spans := line.spans[:n]
		text := line.text[:0]
		if n > 0 {
			text = line.text[:spans[n-1].to]
		}
		out = find(out, text, spans)
		line.text, line.spans = line.text[:0], line.spans[:0]
	}
	rows := t.TextRows()
	for y := 0; y < rows; y++ {
		r := t.textRow(y, buf)
		buf = r.cells[:0]
		for x, c := range r.cells {
			if spacer(c) {
				continue
			}
			from := len(line.text)
			line.text = appendCellText(line.text, &r, x)
			line.spans = append(line.spans, textSpan{from: from, to: len(line.text), row: y, col: x, end: cellEnd(r.cells, x)})
		}
		if !r.wrapped || y == rows-1 {
			flush()
		}
	}
	return out
}

func bytesBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// findFunc appends the matches in one line.
type findFunc func(out []TextRange, text []byte, spans []textSpan) []TextRange

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
		return func(out []TextRange, text []byte, spans []textSpan) []TextRange {
			return indexAll(out, text, text, q, spans)
		}
	case ascii:
		q := bytes.ToLower([]byte(query))
		var folded []byte
		return func(out []TextRange, text []byte, spans []textSpan) []TextRange {
			folded = append(folded[:0], text...)
			for i, c := range folded {
				if c >= 'A' && c <= 'Z' {
					folded[i] = c + 'a' - 'A'
				}
			}
			return indexAll(out, text, folded, q, spans)
		}
	default:
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(query))
		return func(out []TextRange, text []byte, spans []textSpan) []TextRange {
			for _, m := range re.FindAllIndex(text, -1) {
				out = appendMatch(out, m[0], m[1], spans)
			}
			return out
		}
	}
}

// indexAll appends the matches of q in hay (text, or text folded).
func indexAll(out []TextRange, _ []byte, hay, q []byte, spans []textSpan) []TextRange {
	for off := 0; off+len(q) <= len(hay); {
		i := bytes.Index(hay[off:], q)
		if i < 0 {
			break
		}
		from := off + i
		out = appendMatch(out, from, from+len(q), spans)
		off = from + len(q)
	}
	return out
}

// appendMatch appends the match of bytes [from, to) when both ends fall
// on character boundaries.
func appendMatch(out []TextRange, from, to int, spans []textSpan) []TextRange {
	i, ok := spanStarting(spans, from)
	if !ok {
		return out
	}
	j, ok := spanEnding(spans[i:], to)
	if !ok {
		return out
	}
	a, b := spans[i], spans[i+j]
	return append(out, TextRange{Start: TextPoint{a.row, a.col}, End: TextPoint{b.row, b.end}})
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
