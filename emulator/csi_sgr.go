package emulator

// SGR (select graphic rendition) and the pen. The pen is kept both as a full
// style and as its interned id, so printing a character costs no lookup.

// sgr applies SGR parameters. sub has bit i set when params[i] is a
// colon-separated sub-parameter of the parameter before it ("4:3",
// "38:2::r:g:b"). SGR 0 keeps the hyperlink: that is OSC 8 state.
func (t *Terminal) sgr(params []int64, sub uint64) {
	s := t.pen
	if len(params) == 0 {
		params = []int64{0}
	}
	for i := 0; i < len(params); i++ {
		if sub&(1<<i) != 0 {
			continue // a stray sub-parameter
		}
		nsub := 0
		for i+1+nsub < len(params) && sub&(1<<(i+1+nsub)) != 0 {
			nsub++
		}
		subs := params[i+1 : i+1+nsub]
		switch p := params[i]; {
		case p == 4 && nsub > 0:
			s.under = underSingle
			if subs[0] >= 0 && subs[0] <= int64(underDashed) {
				s.under = uint8(subs[0])
			}
		case p == 38, p == 48, p == 58:
			var c color
			ok := false
			if nsub > 0 {
				c, ok = colonColor(subs)
			} else {
				var n int
				c, ok, n = extendedColor(params[i+1:])
				i += n
			}
			if ok {
				s.setExtended(p, c)
			}
		default:
			s.applySGR(p)
		}
		i += nsub
	}
	t.setPen(s)
}

// colonColor parses the sub-parameters of "38:…", "48:…" or "58:…":
// "5:n", "2:cs:r:g:b" (cs, the colour space, is ignored; often empty) or
// the common "2:r:g:b".
func colonColor(subs []int64) (color, bool) {
	switch {
	case len(subs) >= 2 && subs[0] == 5:
		return indexedColor(int(subs[1] & 0xff)), true
	case len(subs) >= 5 && subs[0] == 2:
		return rgbColor(int(subs[2]&0xff), int(subs[3]&0xff), int(subs[4]&0xff)), true
	case len(subs) == 4 && subs[0] == 2:
		return rgbColor(int(subs[1]&0xff), int(subs[2]&0xff), int(subs[3]&0xff)), true
	}
	return 0, false
}

// extendedColor parses the arguments of SGR 38/48/58: "5;n" or "2;r;g;b". It
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
	t.eraseID = 0
	if s == (style{}) {
		// SGR 0, a quarter of coloured output's changes: the default
		// style is id 0 (interning never adds a second entry equal to it).
		t.penID = 0
		return
	}
	t.penID = t.internPen(s)
	if s.bg != colorDefault {
		t.eraseID = t.internPen(style{bg: s.bg})
	}
}

// internPen interns a pen style. A new one, once the table holds
// penLimit styles, first recycles the ids no cell uses, so that output
// whose colours are all new keeps a small table that stays in the cache.
// Only the pen recycles: no cell is in flight while it is set, whereas
// cells decoded from scrollback (internDecoded) are held by id until
// their line is complete.
func (t *Terminal) internPen(s style) uint16 {
	st := &t.styles
	if st.penLimitReached() {
		if id, found, _, _ := st.find(s); found {
			return id
		}
		t.compactStyles()
		// The next compaction comes after at least three times as many
		// new styles as are still in use, so its O(screen) cost is
		// shared among them.
		st.penLimit = min(max(minPenLimit, 4*len(st.list)), maxStyles)
	}
	return t.intern(s)
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
// (screens and pen; scrollback stores styles by value) and renumbers the
// cells. It reuses the table's buffers: output of new colours compacts
// often.
func (t *Terminal) compactStyles() {
	st := &t.styles
	old := st.list
	if cap(st.remap) < len(old) {
		st.remap = make([]int32, len(old))
	}
	remap := st.remap[:len(old)]
	for i := range remap {
		remap[i] = -1
	}
	fresh := append(st.spare[:0], style{})
	remap[0] = 0
	mapID := func(id uint16) uint16 {
		if int(id) >= len(remap) {
			return 0
		}
		if remap[id] < 0 {
			remap[id] = int32(len(fresh))
			fresh = append(fresh, old[id])
		}
		return uint16(remap[id])
	}
	for _, s := range []*screen{t.primary, t.alt} {
		if s == nil {
			continue
		}
		for _, l := range s.lines {
			cells := l.cells[:min(int(l.hi), len(l.cells))]
			for i := range cells {
				if cells[i].style != 0 {
					cells[i].style = mapID(cells[i].style)
				}
			}
		}
	}
	t.penID = mapID(t.penID)
	t.eraseID = mapID(t.eraseID)
	st.list, st.spare = fresh, old[:0]
	st.reindex()
	t.compactLinks()
}

// compactLinks rebuilds the hyperlink table with only the links used by the
// (already compacted) style table and the pens, renumbering them.
func (t *Terminal) compactLinks() {
	if len(t.links.list) == 0 {
		return
	}
	old := t.links
	t.links = linkTable{}
	remap := make(map[uint16]uint16)
	mapLink := func(id uint16) uint16 {
		if id == 0 {
			return 0
		}
		nid, ok := remap[id]
		if !ok {
			nid, _ = t.links.lookup(old.get(id))
			remap[id] = nid
		}
		return nid
	}
	st := &t.styles
	for i := range st.list {
		st.list[i].link = mapLink(st.list[i].link)
	}
	st.reindex()
	t.pen.link = mapLink(t.pen.link)
	t.savedMain.pen.link = mapLink(t.savedMain.pen.link)
	t.savedAlt.pen.link = mapLink(t.savedAlt.pen.link)
}
