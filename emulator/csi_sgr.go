package emulator

// SGR (select graphic rendition) and the pen. The pen is kept both as a full
// style and as its interned id, so printing a character costs no lookup.

func (t *Terminal) sgr(params []int64) {
	s := t.pen
	if len(params) == 0 {
		params = []int64{0}
	}
	for i := 0; i < len(params); i++ {
		switch p := params[i]; {
		case p == 0:
			s = style{}
		case p == 1:
			s.attrs |= attrBold
		case p == 2:
			s.attrs |= attrDim
		case p == 3:
			s.attrs |= attrItalic
		case p == 4 || p == 21:
			s.attrs |= attrUnderline
		case p == 5 || p == 6:
			s.attrs |= attrBlink
		case p == 7:
			s.attrs |= attrInverse
		case p == 8:
			s.attrs |= attrHidden
		case p == 9:
			s.attrs |= attrStrike
		case p == 22:
			s.attrs &^= attrBold | attrDim
		case p == 23:
			s.attrs &^= attrItalic
		case p == 24:
			s.attrs &^= attrUnderline
		case p == 25:
			s.attrs &^= attrBlink
		case p == 27:
			s.attrs &^= attrInverse
		case p == 28:
			s.attrs &^= attrHidden
		case p == 29:
			s.attrs &^= attrStrike
		case p >= 30 && p <= 37:
			s.fg = indexedColor(int(p - 30))
		case p == 38:
			c, ok, n := extendedColor(params[i+1:])
			i += n
			if ok {
				s.fg = c
			}
		case p == 39:
			s.fg = colorDefault
		case p >= 40 && p <= 47:
			s.bg = indexedColor(int(p - 40))
		case p == 48:
			c, ok, n := extendedColor(params[i+1:])
			i += n
			if ok {
				s.bg = c
			}
		case p == 49:
			s.bg = colorDefault
		case p >= 90 && p <= 97:
			s.fg = indexedColor(int(p - 90 + 8))
		case p >= 100 && p <= 107:
			s.bg = indexedColor(int(p - 100 + 8))
		}
	}
	t.setPen(s)
}

// extendedColor parses the arguments of SGR 38/48: "5;n" or "2;r;g;b". It
// returns the colour, whether it was well formed and how many params it
// consumed.
func extendedColor(args []int64) (color, bool, int) {
	if len(args) == 0 {
		return 0, false, 0
	}
	switch args[0] {
	case 5:
		if len(args) < 2 {
			return 0, false, len(args)
		}
		return indexedColor(int(args[1] & 0xff)), true, 2
	case 2:
		if len(args) < 4 {
			return 0, false, len(args)
		}
		return rgbColor(int(args[1]&0xff), int(args[2]&0xff), int(args[3]&0xff)), true, 4
	}
	return 0, false, 1
}

// setPen makes s the current pen, interning it and its erase style.
func (t *Terminal) setPen(s style) {
	if s == t.pen {
		return
	}
	t.pen = s
	t.penID = t.intern(s)
	t.eraseID = 0
	if s.bg != colorDefault {
		t.eraseID = t.intern(style{bg: s.bg})
	}
}

// intern returns the id of s, compacting the style table when it is full.
// If it is still full, the default style is used.
func (t *Terminal) intern(s style) uint16 {
	if id, ok := t.styles.lookup(s); ok {
		return id
	}
	t.compactStyles()
	id, _ := t.styles.lookup(s)
	return id
}

// compactStyles rebuilds the style table with only the styles still in use
// (screens, scrollback, pen) and renumbers the cells.
func (t *Terminal) compactStyles() {
	old := t.styles.list
	remap := make([]int32, len(old))
	for i := range remap {
		remap[i] = -1
	}
	fresh := newStyleTable()
	remap[0] = 0
	mapID := func(id uint16) uint16 {
		if int(id) >= len(remap) {
			return 0
		}
		if remap[id] < 0 {
			nid, _ := fresh.lookup(old[id])
			remap[id] = int32(nid)
		}
		return uint16(remap[id])
	}
	renumber := func(cells []cell) {
		for i := range cells {
			if cells[i].style != 0 {
				cells[i].style = mapID(cells[i].style)
			}
		}
	}
	for _, s := range []*screen{t.primary, t.alt} {
		if s == nil {
			continue
		}
		for _, l := range s.lines {
			renumber(l.cells)
		}
	}
	for i := 0; i < t.sb.len(); i++ {
		renumber(t.sb.cells(t.sb.at(i)))
	}
	t.styles = fresh
	t.penID = mapID(t.penID)
	t.eraseID = mapID(t.eraseID)
}
