package emulator

import "strconv"

// Cursor movement (CUU CUD CUF CUB CNL CPL CHA CUP HVP VPA), tabs, margins,
// save/restore and position reports. Every movement clears the pending wrap
// and clamps to the screen (or to the scroll region where VT100 says so).

func (t *Terminal) cursorUp(n int) {
	t.pendingWrap = false
	lo := 0
	if t.y >= t.top {
		lo = t.top
	}
	t.y = clamp(t.y-n, lo, t.rows-1)
}

func (t *Terminal) cursorDown(n int) {
	t.pendingWrap = false
	hi := t.rows - 1
	if t.y <= t.bottom {
		hi = t.bottom
	}
	t.y = clamp(t.y+n, 0, hi)
}

func (t *Terminal) cursorForward(n int) {
	t.pendingWrap = false
	t.x = clamp(t.x+n, 0, t.cols-1)
}

func (t *Terminal) cursorBack(n int) {
	t.pendingWrap = false
	t.x = clamp(t.x-n, 0, t.cols-1)
}

func (t *Terminal) setColumn(x int) {
	t.pendingWrap = false
	t.x = clamp(x, 0, t.cols-1)
}

// setRow implements VPA (origin-relative when DECOM is set).
func (t *Terminal) setRow(y int) {
	t.pendingWrap = false
	if t.modes.Origin {
		t.y = clamp(y+t.top, t.top, t.bottom)
		return
	}
	t.y = clamp(y, 0, t.rows-1)
}

// moveTo implements CUP/HVP with 0-based coordinates.
func (t *Terminal) moveTo(x, y int) {
	t.setColumn(x)
	t.setRow(y)
}

func (t *Terminal) tabForward(n int) {
	t.pendingWrap = false
	for ; n > 0 && t.x < t.cols-1; n-- {
		t.x++
		for t.x < t.cols-1 && !t.tabStop(t.x) {
			t.x++
		}
	}
}

func (t *Terminal) tabBack(n int) {
	t.pendingWrap = false
	for ; n > 0 && t.x > 0; n-- {
		t.x--
		for t.x > 0 && !t.tabStop(t.x) {
			t.x--
		}
	}
}

func (t *Terminal) clearTabs(mode int) {
	switch mode {
	case 0:
		t.ownTabs()[t.x] = false
	case 3:
		clear(t.ownTabs())
	}
}

// setMargins implements DECSTBM with 1-based inclusive rows.
func (t *Terminal) setMargins(top, bottom int) {
	top--
	bottom--
	if bottom > t.rows-1 {
		bottom = t.rows - 1
	}
	if top < 0 || top >= bottom {
		if top != 0 || bottom != t.rows-1 {
			return
		}
	}
	t.top, t.bottom = top, bottom
	t.pendingWrap = false
	t.x = 0
	if t.modes.Origin {
		t.y = t.top
	} else {
		t.y = 0
	}
}

func (t *Terminal) savedSlot() *savedCursor {
	if t.scr == t.alt && t.alt != nil {
		return &t.savedAlt
	}
	return &t.savedMain
}

// saveCursor implements DECSC.
func (t *Terminal) saveCursor() {
	*t.savedSlot() = savedCursor{
		x: t.x, y: t.y, pen: t.pen, pendingWrap: t.pendingWrap,
		origin: t.modes.Origin, charsets: t.charsets, valid: true,
	}
}

// restoreCursor implements DECRC. Without a saved state it homes the cursor
// and resets the pen, like xterm.
func (t *Terminal) restoreCursor() {
	s := *t.savedSlot()
	t.x = clamp(s.x, 0, t.cols-1)
	t.y = clamp(s.y, 0, t.rows-1)
	t.pendingWrap = s.pendingWrap && s.valid
	t.modes.Origin = s.origin
	t.charsets = s.charsets
	t.lineDrawing = s.charsets.lineDrawing()
	t.setPen(s.pen)
}

// reportCursor answers DSR 6 (CPR) or DECXCPR with 1-based coordinates.
func (t *Terminal) reportCursor(private bool) {
	y := t.y
	if t.modes.Origin {
		y -= t.top
	}
	b := t.reply[:0]
	b = append(b, "\x1b["...)
	if private {
		b = append(b, '?')
	}
	b = strconv.AppendInt(b, int64(y+1), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(t.x+1), 10)
	b = append(b, 'R')
	t.reply = b
	t.sendReply(b)
}
