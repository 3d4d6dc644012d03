package emulator

import "slices"

// A pending wait for output (or an output matcher) searches a recent
// window of lines after every batch of output. Reading the whole window
// each time made the search cost as much as the window, not as the
// output: under a flood, a batch of a few KiB re-rendered 80 lines (and
// decoded their scrollback) to find the few written since, and that was
// more of the server's work than parsing the output. ReadChanged searches
// only the lines that may read differently since the last search with the
// same ReadMark; the lines it skips were searched before, unchanged, and
// declined.
//
// Rows are numbered absolutely on the primary screen: screen row y is
// scrolled+y, scrollback line i is scrolled-len+i. Between two searches the
// numbering holds, and a row with a number keeps its neighbours, while
// the screen only scrolls whole (lines go to scrollback in order), rows
// change in place and the oldest lines are evicted. Anything else that
// moves rows (a scroll region, IL/DL, SD, a resize, the other screen, a
// reset) bumps Terminal.layout, anything that changes scrollback lines
// bumps its gen; either makes the next search read the whole window.

// pushRing is how many of the newest pushed lines' content versions a
// terminal remembers once a ReadMark is used: more than the longest
// recent window (MaxRecentLines), so every scrollback line of a window
// pushed since the last search is found there.
const pushRing = 1024

// ReadMark remembers what the last ReadChanged with it covered. The zero
// value covers nothing: the first search reads the whole window.
type ReadMark struct {
	t           *Terminal
	opts        ReadOptions
	layout, gen uint64
	ver         uint64 // t.ver at the search: rows of a later version changed since
	scrolled    int64  // rows numbered from here on were on the screen
	stored      int64  // scrollback lines stored minus scrolled: a line not stored breaks the numbering
	first, end  int64  // the window's rows [first, end)
	// buf, spans and cells are a search's scratch, kept for the next.
	buf   []byte
	spans [][2]int
	cells []cell
}

// Reset makes the next search read the whole window.
func (m *ReadMark) Reset() { m.t = nil }

// ReadChanged calls match with each line of the recent window o selects
// (SourceRecent or SourceRecentUnwrapped; rendered as Read renders them)
// that may read differently since the last ReadChanged with m, and moves m
// on. It stops at the first line match accepts and returns true, as it
// does when it cannot tell (another source or screen, or a window over
// o.MaxBytes): the caller then reads the whole window. False says no line
// of the window matches, provided every line match declined before stays
// declined (a fixed query).
func (t *Terminal) ReadChanged(o ReadOptions, m *ReadMark, match func(line []byte) bool) bool {
	if (o.Source != SourceRecent && o.Source != SourceRecentUnwrapped) || t.scr != t.primary {
		m.Reset()
		return true
	}
	if t.pushVers == nil {
		t.pushVers = new([pushRing]uint64)
		m.Reset() // lines pushed before are not in the ring
	}
	ansi := o.ANSI
	n := o.Lines
	if n <= 0 {
		n = DefaultRecentLines
	}
	n = min(n, MaxRecentLines)
	lines := t.scr.lines
	rows := len(lines) // the screen's rows but the trailing blank ones (screenRows)
	for rows > 0 && keptCells(t.screenRow(lines[rows-1]), ansi) == 0 {
		rows--
	}
	sbLen := t.sb.len()
	total := sbLen + rows
	if total == 0 {
		m.Reset()
		return true // an empty window reads as one empty line: let Read tell
	}
	first := max(total-n, 0)
	count := total - first
	base := t.scrolled - int64(sbLen) // the number of scrollback line 0
	wFirst, wEnd := base+int64(first), t.scrolled+int64(rows)
	stored := int64(t.sb.seq) + int64(sbLen) - t.scrolled
	valid := m.t == t && m.opts == o && m.layout == t.layout && m.gen == t.sb.gen &&
		(m.stored == stored || t.sb.limit <= 0) && wFirst >= m.first
	unwrap := o.Source == SourceRecentUnwrapped

	wrapped := func(j int) bool { // row j of scrollback then screen
		if j < sbLen {
			return t.sb.at(j).wrapped
		}
		return lines[j-sbLen].wrapped
	}
	dirty := func(i int) bool { // window row i
		if !valid {
			return true
		}
		a := wFirst + int64(i)
		switch {
		case a >= m.end:
			return true // new, or a trailing blank row before
		case a >= t.scrolled:
			return lines[a-t.scrolled].ver > m.ver
		case a >= m.scrolled:
			// On the screen at the last search, pushed since: changed if
			// its content came after, or if it wraps (pushed, a row
			// loses its trailing blanks, which a joined line showed).
			return a < t.scrolled-pushRing || t.pushVers[a&(pushRing-1)] > m.ver || t.sb.at(int(a-base)).wrapped
		}
		return false // in scrollback already, and in the window
	}
	// The window's first line may be a logical line clipped where the
	// window starts, which moved. Its last line is trimmed, or ended by a
	// row that is now gone, when the end moved.
	firstDirty := valid && unwrap && wFirst != m.first
	lastDirty := valid && wEnd != m.end

	// The lines to search, as spans of window rows, and the scrollback
	// lines they hold, decoded at once.
	spans := m.spans[:0]
	sbFrom, sbTo := sbLen, 0
	for s := 0; s < count; {
		e := s // the line's last row
		if unwrap {
			for e < count-1 && wrapped(first+e) {
				e++
			}
		}
		// A line whose row before changed may have been split from it
		// (the row's wrap flag went).
		need := (s == 0 && firstDirty) || (e == count-1 && lastDirty) || (unwrap && s > 0 && dirty(s-1))
		for i := s; i <= e && !need; i++ {
			need = dirty(i)
		}
		if need {
			spans = append(spans, [2]int{s, e})
			if first+s < sbLen {
				sbFrom, sbTo = min(sbFrom, first+s), min(first+e+1, sbLen)
			}
		}
		s = e + 1
	}
	var decoded []row // made at the first scrollback line not plain
	buf := m.buf
	found := false
	for _, sp := range spans {
		buf = buf[:0]
		for i := sp[0]; i <= sp[1]; i++ {
			var r row
			if j := first + i; j < sbLen {
				rec := t.sb.at(j)
				if !rec.hasComb {
					// Printable ASCII in the default style is encoded as
					// its text (scrollback.go): no decode.
					if d := t.sb.data(rec); len(d) <= maxDecodedCells && printablePrefix(d) == len(d) {
						if !unwrap || !rec.wrapped || i == count-1 {
							for len(d) > 0 && d[len(d)-1] == ' ' {
								d = d[:len(d)-1]
							}
						}
						buf = append(buf, d...)
						continue
					}
				}
				if !ansi {
					// The text alone: styles need no interning.
					m.cells = t.sb.decode(m.cells[:0], rec, maxDecodedCells, noStyle)
					r = row{cells: m.cells, comb: t.sb.comb(j), wrapped: rec.wrapped, st: &t.styles, links: &t.links}
				} else {
					if decoded == nil {
						decoded = t.scrollbackRows(sbFrom, sbTo)
					}
					r = decoded[j-sbFrom]
				}
			} else {
				r = t.screenRow(lines[j-sbLen])
			}
			k := len(r.cells)
			if !unwrap || !r.wrapped || i == count-1 {
				k = keptCells(r, ansi)
			}
			if j := first + i; j >= sbLen && r.comb == nil && k <= int(lines[j-sbLen].plain) {
				// Printable ASCII in the default style (printRun vouches
				// for it): its text is its bytes.
				buf = appendPlain(buf, r.cells[:k])
				continue
			}
			buf = t.renderCells(buf, r, k, ansi)
		}
		if o.MaxBytes > 0 && len(buf) > o.MaxBytes {
			break
		}
		if found = match(buf); found {
			break
		}
	}
	if found || (o.MaxBytes > 0 && len(buf) > o.MaxBytes) {
		m.Reset() // a matching line was seen, not declined; or Read must tell
		return true
	}
	*m = ReadMark{t: t, opts: o, layout: t.layout, gen: t.sb.gen, ver: t.ver, scrolled: t.scrolled, stored: stored, first: wFirst, end: wEnd,
		buf: buf[:0], spans: spans[:0], cells: m.cells[:0]}
	return false
}

// screenRow is a read's view of screen line l.
func (t *Terminal) screenRow(l *line) row {
	return row{cells: l.cells, comb: l.comb, wrapped: l.wrapped, st: &t.styles, links: &t.links}
}

// appendPlain appends the characters of cells that are all printable
// ASCII, a byte each.
func appendPlain(b []byte, cells []cell) []byte {
	n := len(b)
	b = slices.Grow(b, len(cells))[:n+len(cells)]
	dst := b[n:]
	for k, c := range cells {
		dst[k] = byte(c.ch)
	}
	return b
}
