package emulator

// Erase and edit operations: ED, EL, ECH, IL, DL, ICH, DCH, SU, SD. Erased
// cells take the background of the current pen (BCE), like xterm.

// eraseDisplay implements ED.
func (t *Terminal) eraseDisplay(mode int) {
	t.pendingWrap = false
	lines := t.scr.lines
	switch mode {
	case 0: // cursor to end
		l := t.scr.at(t.y)
		l.breakWide(t.x)
		l.fill(t.x, t.cols, t.eraseID)
		l.wrapped = false
		for _, l := range t.erasable(t.y+1, t.rows) {
			l.reset(t.eraseID)
		}
		t.damageRows(lines[t.y:])
	case 1: // start to cursor
		for _, l := range t.erasable(0, t.y) {
			l.reset(t.eraseID)
		}
		l := t.scr.at(t.y)
		l.breakWide(t.x)
		l.fill(0, t.x+1, t.eraseID)
		t.damageRows(lines[:t.y+1])
	case 2: // whole screen
		for _, l := range t.erasable(0, t.rows) {
			l.reset(t.eraseID)
		}
		t.damageRows(lines)
	case 3: // scrollback (xterm)
		t.sb.clear()
		t.view = 0
	}
	if t.kitty != nil && mode >= 2 {
		t.kittyCleared(mode == 3)
	}
}

// erasable returns rows [from, to) of the active screen for an erase:
// with the default erase style a row sharing the blank record stays
// shared (resetting it writes nothing), with another each gets its own.
func (t *Terminal) erasable(from, to int) []*line {
	if t.eraseID == 0 {
		return t.scr.lines[from:to]
	}
	return t.scr.rowsAt(from, to)
}

// eraseLine implements EL.
func (t *Terminal) eraseLine(mode int) {
	t.pendingWrap = false
	l := t.scr.at(t.y)
	t.damage(l)
	switch mode {
	case 0:
		l.breakWide(t.x)
		l.fill(t.x, t.cols, t.eraseID)
		l.wrapped = false
	case 1:
		l.breakWide(t.x)
		l.fill(0, t.x+1, t.eraseID)
	case 2:
		l.reset(t.eraseID)
	}
}

// eraseChars implements ECH.
func (t *Terminal) eraseChars(n int) {
	t.pendingWrap = false
	l := t.scr.at(t.y)
	t.damage(l)
	end := t.x + n
	if end > t.cols {
		end = t.cols
	}
	l.breakWide(t.x)
	l.breakWide(end - 1)
	l.fill(t.x, end, t.eraseID)
}

// insertChars implements ICH.
func (t *Terminal) insertChars(n int) {
	t.pendingWrap = false
	t.shiftRight(t.scr.at(t.y), t.x, n)
}

// shiftRight moves cells [x, cols) right by n, blanking [x, x+n).
func (t *Terminal) shiftRight(l *line, x, n int) {
	if n > t.cols-x {
		n = t.cols - x
	}
	if n <= 0 {
		return
	}
	if l.cells[x].flags&cellCont != 0 {
		// Splitting a wide character: both halves go.
		l.breakWide(x)
	}
	l.own()
	t.damage(l)
	copy(l.cells[x+n:], l.cells[x:t.cols-n])
	l.touch(min(int(l.hi)+n, t.cols))
	l.shiftComb(x, t.cols, n)
	l.fill(x, x+n, t.eraseID)
	if last := t.cols - 1; l.cells[last].flags&cellWide != 0 {
		l.clearCell(last)
	}
	l.wrapped = false
}

// deleteChars implements DCH.
func (t *Terminal) deleteChars(n int) {
	t.pendingWrap = false
	x := t.x
	if n > t.cols-x {
		n = t.cols - x
	}
	if n <= 0 {
		return
	}
	l := t.scr.at(t.y)
	l.own()
	t.damage(l)
	l.breakWide(x)
	l.breakWide(x + n - 1)
	copy(l.cells[x:], l.cells[x+n:])
	l.shiftComb(x, t.cols, -n)
	l.fill(t.cols-n, t.cols, t.eraseID)
	l.wrapped = false
}

// insertLines implements IL (only inside the scroll region).
func (t *Terminal) insertLines(n int) {
	t.pendingWrap = false
	if t.y < t.top || t.y > t.bottom {
		return
	}
	t.x = 0
	top := t.top
	t.top = t.y
	t.scrollDown(n)
	t.top = top
}

// deleteLines implements DL (only inside the scroll region).
func (t *Terminal) deleteLines(n int) {
	t.pendingWrap = false
	if t.y < t.top || t.y > t.bottom {
		return
	}
	t.x = 0
	top := t.top
	t.top = t.y
	t.scrollRegionUp(n, false)
	t.top = top
}

// scrollUp scrolls the scroll region up by n lines. On the primary screen
// with the region starting at the top, the lines leaving the screen go to
// scrollback.
func (t *Terminal) scrollUp(n int) {
	t.scrollRegionUp(n, t.scr == t.primary && t.top == 0)
}

func (t *Terminal) scrollRegionUp(n int, toScrollback bool) {
	h := t.bottom - t.top + 1
	if n > h {
		n = h
	}
	if n <= 0 {
		return
	}
	region := t.scr.lines[t.top : t.bottom+1]
	if !toScrollback || len(region) != len(t.scr.lines) {
		t.layout++ // rows move, not all into scrollback (read_changed.go)
	}
	if toScrollback {
		t.scrolled += int64(n)
	}
	if t.kitty != nil {
		t.kittyScrolled(t.top, t.bottom, -n)
	}
	for i, l := range t.erasable(t.top, t.top+n) {
		if toScrollback {
			if t.pushVers != nil {
				t.pushVers[(t.scrolled-int64(n-i))&(pushRing-1)] = l.ver
			}
			t.sbPush(l)
		}
		l.reset(t.eraseID)
		t.damage(l)
	}
	if n == 1 && len(region) == len(t.scr.lines) {
		t.scr.slideUp()
		return
	}
	rotateLeft(region, n)
}

// scrollDown scrolls the scroll region down by n lines (blank lines appear
// at the top of the region).
func (t *Terminal) scrollDown(n int) {
	h := t.bottom - t.top + 1
	if n > h {
		n = h
	}
	if n <= 0 {
		return
	}
	region := t.scr.lines[t.top : t.bottom+1]
	t.layout++
	if t.kitty != nil {
		t.kittyScrolled(t.top, t.bottom, n)
	}
	for _, l := range t.erasable(t.bottom+1-n, t.bottom+1) {
		l.reset(t.eraseID)
		t.damage(l)
	}
	rotateLeft(region, h-n)
}

// rotateLeft rotates s left by n positions in place.
func rotateLeft(s []*line, n int) {
	if n <= 0 || n >= len(s) {
		return
	}
	if n == 1 {
		first := s[0]
		copy(s, s[1:])
		s[len(s)-1] = first
		return
	}
	reverse(s[:n])
	reverse(s[n:])
	reverse(s)
}

func reverse(s []*line) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
