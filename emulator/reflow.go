package emulator

// Reflow of the primary screen on a width change: soft-wrapped rows are
// joined into logical lines and re-wrapped at the new width. Only the screen
// is reflowed; scrollback keeps the width it was written with (a logical line
// that started in scrollback restarts at the top of the screen).

// reflowPrimary re-wraps the primary screen to cols columns, keeping its
// number of rows. Rows that no longer fit above the cursor go to
// scrollback. It updates the primary cursor (t.x/t.y or the saved one) and
// reports whether it is left in the pending-wrap state.
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
	last := cy
	for i := rows - 1; i > cy; i-- {
		if !lineBlank(s.lines[i]) {
			last = i
			break
		}
	}

	var (
		out        []*line
		cur        *line
		col        int
		newX, newY = -1, -1
		buf        []cell
		comb       map[int]string
	)
	newRow := func() {
		cur = newLine(cols, 0)
		out = append(out, cur)
		col = 0
	}
	for i := 0; i <= last; {
		// Gather one logical line: rows i..j joined by soft wraps.
		buf = buf[:0]
		comb = nil
		cursorOff := -1
		for {
			l := s.lines[i]
			n := len(l.cells)
			end := i == last || !l.wrapped
			if end {
				n = min(l.hi, n)
				for n > 0 && l.cells[n-1] == (cell{}) {
					n--
				}
			}
			if i == cy {
				cursorOff = len(buf) + cx
			}
			for x, c := range l.cells[:n] {
				if c.flags&cellPad != 0 && l.wrapped {
					continue
				}
				if c.flags&cellComb != 0 && l.comb != nil {
					if comb == nil {
						comb = make(map[int]string)
					}
					comb[len(buf)] = l.comb[x]
				}
				c.flags &^= cellPad
				buf = append(buf, c)
			}
			i++
			if end {
				break
			}
		}
		// Re-wrap it.
		newRow()
		for k := 0; k < len(buf); k++ {
			c := buf[k]
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
				newRow()
			}
			if k == cursorOff {
				newX, newY = col, len(out)-1
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
		if cursorOff >= 0 && newY < 0 {
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
		out = append(out, newLine(cols, 0))
	}
	s.lines = out
	if t.scr == t.primary {
		t.x, t.y = newX, newY
	} else {
		t.savedMain.x, t.savedMain.y = newX, newY
	}
	return pendingWrap
}
