package emulator

// Reflow on a width change: soft-wrapped rows are joined into logical lines
// and re-wrapped at the new width, in scrollback and on the primary screen
// alike. A logical line that starts in scrollback and continues on the
// screen is taken back onto the screen for the reflow (and what no longer
// fits goes back to scrollback).

// rewrap lays out the cells of one logical line (soft-wrap pads already
// dropped; comb maps cell indexes to combining marks) in rows of cols
// columns. next is called for the first row and after every wrap and must
// return a blank line of cols cells; rewrap marks the rows it leaves as
// wrapped. mark is an index into cells, or -1: markRow (counted from 0, the
// first row) and markCol tell where that cell landed, -1 if it was not
// reached. rows is the number of rows used and col the column after the
// last cell.
func rewrap(cells []cell, comb map[int]string, cols, mark int, next func() *line) (rows, col, markRow, markCol int) {
	markRow, markCol = -1, -1
	cur := next()
	cur.own()
	rows = 1
	for k := 0; k < len(cells); k++ {
		c := cells[k]
		if c.flags&cellCont != 0 {
			continue
		}
		w := 1
		if c.flags&cellWide != 0 {
			w = 2
			if cols < 2 {
				w = 1
				c.flags &^= cellWide
			}
		}
		if col+w > cols {
			if col < cols {
				cur.cells[col] = cell{style: c.style, flags: cellPad}
				cur.touch(cols)
			}
			cur.wrapped = true
			cur = next()
			cur.own()
			rows++
			col = 0
		}
		if k == mark {
			markRow, markCol = rows-1, col
		}
		if comb != nil {
			if m, ok := comb[k]; ok {
				if cur.comb == nil {
					cur.comb = make(map[int]string)
				}
				cur.comb[col] = m
			}
		}
		cur.cells[col] = c
		if w == 2 {
			cur.cells[col+1] = cell{style: c.style, flags: cellCont}
		}
		col += w
		cur.touch(col)
	}
	return rows, col, markRow, markCol
}

// appendRow appends the cells of one row of a logical line to buf, dropping
// the pads a wrapped row keeps for wide characters, and records the row's
// combining marks (rowComb, by column) in comb under their index in buf.
func appendRow(buf []cell, comb map[int]string, cells []cell, rowComb map[int]string, wrapped bool) ([]cell, map[int]string) {
	for x, c := range cells {
		if c.flags&cellPad != 0 && wrapped {
			continue
		}
		if c.flags&cellComb != 0 && rowComb != nil {
			if m, ok := rowComb[x]; ok {
				if comb == nil {
					comb = make(map[int]string)
				}
				comb[len(buf)] = m
			}
		}
		c.flags &^= cellPad
		buf = append(buf, c)
	}
	return buf, comb
}

// carryScrollbackTail moves the scrollback lines of a logical line that
// continues on the screen (the newest lines, when the newest is
// soft-wrapped) to the top of the primary screen, at the current width. It
// returns how many rows it added.
func (t *Terminal) carryScrollbackTail() int {
	sb := &t.sb
	n := sb.len()
	if n == 0 || !sb.at(n-1).wrapped {
		return 0
	}
	k := n - 1
	for k > 0 && sb.at(k-1).wrapped {
		k--
	}
	carry := n - k
	s := t.primary
	// The lines are put on the screen one by one, so that a compaction of
	// the style table while decoding them renumbers them too.
	nl := make([]*line, carry+len(s.lines))
	copy(nl[carry:], s.lines)
	for pos := carry - 1; pos >= 0; pos-- {
		l := newLine(t.cols, 0)
		sb.popNewest(l, t.internDecoded)
		if l.wrapped {
			// Trailing blanks were trimmed: a wrapped row is full width.
			l.touch(len(l.cells))
		}
		nl[pos] = l
		s.lines = nl[pos:]
	}
	t.scrolled -= int64(carry)
	return carry
}

// reflowScrollback re-wraps the scrollback from oldCols to cols columns.
// Its newest line must not be soft-wrapped (see carryScrollbackTail). The
// lines are re-encoded into fresh storage; if they take more bytes than the
// limit, the oldest are dropped.
func (s *scrollback) reflow(oldCols, cols int) {
	if s.count == 0 {
		return
	}
	old := *s
	*s = newScrollback(old.limit)
	s.evicted, s.gen = old.evicted, old.gen+1
	s.enc = old.enc
	s.zc.hot, s.zc.paused = old.zc.hot, true
	defer func() { s.zc.paused = false }()
	// Styles and links are interned in tables of the reflow's own (renewed
	// between logical lines when they fill up), never in the terminal's.
	st := newStyleTable()
	links := &linkTable{}
	intern := func(sty style, link string) uint16 {
		sty.link = 0
		if link != "" {
			sty.link, _ = links.lookup(link)
		}
		id, _ := st.lookup(sty)
		return id
	}
	var (
		buf, rowBuf []cell
		comb        map[int]string
		row         = newLine(cols, 0)
		pending     bool
	)
	next := func() *line {
		if pending {
			s.push(row, &st, links)
			row.reset(0)
		}
		pending = true
		return row
	}
	for i := 0; i < old.count; {
		buf, comb = buf[:0], nil
		for {
			r := old.at(i)
			rowBuf = old.decode(rowBuf[:0], r, maxDecodedCells, intern)
			for r.wrapped && len(rowBuf) < oldCols {
				rowBuf = append(rowBuf, cell{})
			}
			buf, comb = appendRow(buf, comb, rowBuf, old.comb(i), r.wrapped)
			i++
			if !r.wrapped || i == old.count {
				break
			}
		}
		rewrap(buf, comb, cols, -1, next)
		s.push(row, &st, links)
		row.reset(0)
		pending = false
		if len(st.list) > maxStyles/2 || len(links.list) > maxLinks/2 || links.bytes > maxLinkBytes/2 {
			st = newStyleTable()
			links = &linkTable{}
		}
	}
}

// reflowPrimary re-wraps the primary screen (and scrollback) to cols
// columns, keeping its number of rows. Rows that no longer fit above the
// cursor go to scrollback; if the cursor was on the last row and the
// content shrank, rows come back from scrollback to keep it there. It
// updates the primary cursor (t.x/t.y or the saved one) and reports whether
// it is left in the pending-wrap state.
func (t *Terminal) reflowPrimary(cols int) (pendingWrap bool) {
	s := t.primary
	rows := len(s.lines)
	cx, cy := t.x, t.y
	if t.scr != t.primary {
		cx, cy = t.savedMain.x, t.savedMain.y
	} else if t.pendingWrap {
		cx++ // the cursor logically sits after the last column
	}
	cy = clamp(cy, 0, rows-1)
	atBottom := cy == rows-1
	carried := t.carryScrollbackTail()
	t.sb.reflow(t.cols, cols)
	cy += carried
	last := cy
	for i := len(s.lines) - 1; i > cy; i-- {
		if !lineBlank(s.lines[i]) {
			last = i
			break
		}
	}

	var (
		out        []*line
		newX, newY = -1, -1
		buf        []cell
		comb       map[int]string
	)
	next := func() *line {
		l := newLine(cols, 0)
		out = append(out, l)
		return l
	}
	for i := 0; i <= last; {
		// Gather one logical line: rows i..j joined by soft wraps.
		buf, comb = buf[:0], nil
		cursorOff := -1
		for {
			l := s.lines[i]
			n := len(l.cells)
			end := i == last || !l.wrapped
			if end {
				n = min(int(l.hi), n)
				for n > 0 && l.cells[n-1] == (cell{}) {
					n--
				}
			}
			if i == cy {
				cursorOff = len(buf) + cx
			}
			buf, comb = appendRow(buf, comb, l.cells[:n], l.comb, l.wrapped)
			i++
			if end {
				break
			}
		}
		// Re-wrap it.
		first := len(out)
		_, col, markRow, markCol := rewrap(buf, comb, cols, cursorOff, next)
		if markRow >= 0 {
			newX, newY = markCol, first+markRow
		} else if cursorOff >= 0 {
			// The cursor is past the end of the content.
			newY = len(out) - 1
			newX = col + cursorOff - len(buf)
			if newX >= cols {
				newX = cols - 1
				pendingWrap = col == cols && cursorOff == len(buf)
			}
		}
	}
	if newY < 0 {
		newX, newY = min(cx, cols-1), len(out)-1
	}

	// Fit the rows into the screen, keeping the cursor row visible.
	if excess := len(out) - rows; excess > 0 {
		drop := min(excess, newY)
		for _, l := range out[:drop] {
			t.sbPush(l)
		}
		out = out[drop:]
		t.scrolled += int64(drop)
		newY -= drop
		if len(out) > rows {
			out = out[:rows]
		}
	}
	for len(out) < rows {
		out = append(out, s.blankRow(cols))
	}
	s.lines = out
	if atBottom && newY < rows-1 {
		// Keep the cursor on the last row: pull lines back from
		// scrollback into the blank rows below the content.
		newY += t.pullBack(cols, rows-1-newY)
	}
	if t.scr == t.primary {
		t.x, t.y = newX, newY
	} else {
		t.savedMain.x, t.savedMain.y = newX, newY
	}
	return pendingWrap
}

// pullBack moves up to n lines from scrollback to the top of the primary
// screen (cols columns), dropping as many blank rows from its bottom, and
// returns how many it moved.
func (t *Terminal) pullBack(cols, n int) int {
	s := t.primary
	rows := len(s.lines)
	blank := 0
	for blank < n && blank < rows && lineBlank(s.lines[rows-1-blank]) {
		blank++
	}
	n = min(n, blank, t.sb.len())
	if n == 0 {
		return 0
	}
	nl := make([]*line, rows)
	copy(nl[n:], s.lines[:rows-n])
	s.lines = nl[n:]
	for pos := n - 1; pos >= 0; pos-- {
		l := newLine(cols, 0)
		t.sb.popNewest(l, t.internDecoded)
		nl[pos] = l
		s.lines = nl[pos:]
	}
	t.scrolled -= int64(n)
	return n
}
