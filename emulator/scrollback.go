package emulator

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// lineOverheadBytes is the fixed cost charged per scrollback line on top of
// its encoded cells, so that a flood of empty lines is bounded too.
const lineOverheadBytes = 48

// DefaultScrollbackLimitBytes is used when Options.ScrollbackLimitBytes is 0.
const DefaultScrollbackLimitBytes = 10_000_000

// Scrollback lines are stored encoded, not as cells: printable ASCII is one
// byte, other characters their UTF-8, and a style change is written out in
// full (by value, not as a style id) before the cells that use it. A line of
// 120 plain characters costs 120 bytes instead of 960 in cells, and the
// scrollback does not depend on the style or link tables (which can then be
// compacted by looking at the screens only).
const (
	opBlank = 0x00 // a blank cell (ch 0)
	opStyle = 0x01 // the style of the following cells: a field mask, then the fields
	opFlags = 0x02 // the flags of the next cell (wide, continuation, ...)
	opRune  = 0x03 // a character that is neither printable ASCII nor valid UTF-8: uvarint
)

// Style field mask bits of opStyle.
const (
	sfFg = 1 << iota
	sfBg
	sfUl
	sfAttrs
	sfUnder
	sfLink
)

// appendStyle encodes s (its link as the link string).
func appendStyle(b []byte, s *style, links *linkTable) []byte {
	var mask byte
	if s.fg != 0 {
		mask |= sfFg
	}
	if s.bg != 0 {
		mask |= sfBg
	}
	if s.ul != 0 {
		mask |= sfUl
	}
	if s.attrs != 0 {
		mask |= sfAttrs
	}
	if s.under != 0 {
		mask |= sfUnder
	}
	var link string
	if s.link != 0 {
		link = links.get(s.link)
	}
	if link != "" {
		mask |= sfLink
	}
	// Room for the longest encoding but the link's, so that the appends
	// below do not each check for it.
	b = slices.Grow(b, 2+3*binary.MaxVarintLen32+binary.MaxVarintLen16+1)
	b = append(b, opStyle, mask)
	if mask&sfFg != 0 {
		b = binary.AppendUvarint(b, uint64(s.fg))
	}
	if mask&sfBg != 0 {
		b = binary.AppendUvarint(b, uint64(s.bg))
	}
	if mask&sfUl != 0 {
		b = binary.AppendUvarint(b, uint64(s.ul))
	}
	if mask&sfAttrs != 0 {
		b = binary.AppendUvarint(b, uint64(s.attrs))
	}
	if mask&sfUnder != 0 {
		b = append(b, s.under)
	}
	if mask&sfLink != 0 {
		b = binary.AppendUvarint(b, uint64(len(link)))
		b = append(b, link...)
	}
	return b
}

// readStyle decodes what appendStyle wrote after opStyle; n is the number
// of bytes used.
func readStyle(b []byte) (s style, link string, n int) {
	if len(b) == 0 {
		return style{}, "", 0
	}
	mask := b[0]
	n = 1
	next := func() uint64 {
		v, k := binary.Uvarint(b[n:])
		if k <= 0 {
			n = len(b)
			return 0
		}
		n += k
		return v
	}
	if mask&sfFg != 0 {
		s.fg = color(next())
	}
	if mask&sfBg != 0 {
		s.bg = color(next())
	}
	if mask&sfUl != 0 {
		s.ul = color(next())
	}
	if mask&sfAttrs != 0 {
		s.attrs = uint16(next())
	}
	if mask&sfUnder != 0 && n < len(b) {
		s.under = b[n]
		n++
	}
	if mask&sfLink != 0 {
		l := int(next())
		l = min(l, len(b)-n)
		link = string(b[n : n+l])
		n += l
	}
	return s, link, n
}

// encodeCells appends the encoding of cells.
func encodeCells(b []byte, cells []cell, st *styleTable, links *linkTable) []byte {
	var cur uint16
	for i := 0; i < len(cells); {
		c := cells[i]
		if c.style == cur && c.flags == 0 && uint32(c.ch)-0x20 < 0x7f-0x20 {
			// A run of printable ASCII in the current style, a byte a
			// cell: most of what a line holds. One pass writes it into
			// room reserved for the rest of the line.
			rest := cells[i:]
			b = slices.Grow(b, len(rest))
			n := len(b)
			out := b[n : n+len(rest)]
			k := asciiRun(out, rest, cur)
			b = b[:n+k]
			i += k
			continue
		}
		if c.style != cur {
			b = appendStyle(b, st.at(c.style), links)
			cur = c.style
		}
		if c.flags != 0 {
			b = append(b, opFlags, c.flags)
		}
		switch ch := c.ch; {
		case ch == 0:
			b = append(b, opBlank)
		case ch >= 0x20 && ch < 0x7f:
			b = append(b, byte(ch))
		case ch >= 0x80 && utf8.ValidRune(ch):
			b = utf8.AppendRune(b, ch)
		default:
			b = append(b, opRune)
			b = binary.AppendUvarint(b, uint64(uint32(ch)))
		}
		i++
	}
	return b
}

// internFunc maps a decoded style and link to a style id of some table.
type internFunc func(s style, link string) uint16

// decodeCells appends the cells encoded in b (at most max of them).
func decodeCells(dst []cell, b []byte, max int, intern internFunc) []cell {
	var (
		st    uint16
		flags uint8
		n     int
	)
	for i := 0; i < len(b) && n < max; {
		var ch rune
		switch x := b[i]; {
		case x == opStyle:
			s, link, k := readStyle(b[i+1:])
			st = intern(s, link)
			i += 1 + k
			continue
		case x == opFlags:
			if i+1 < len(b) {
				flags = b[i+1]
			}
			i += 2
			continue
		case x == opBlank:
			i++
		case x == opRune:
			v, k := binary.Uvarint(b[i+1:])
			ch = rune(v)
			i += 1 + max1(k)
		case x < utf8.RuneSelf:
			ch = rune(x)
			i++
		default:
			r, k := utf8.DecodeRune(b[i:])
			ch = r
			i += k
		}
		dst = append(dst, cell{ch: ch, style: st, flags: flags})
		flags = 0
		n++
	}
	return dst
}

func max1(k int) int {
	if k < 1 {
		return 1
	}
	return k
}

// sbBlock is a chunk of the scrollback's byte storage. Blocks are never
// grown or copied: a line that does not fit starts a new block, and a block
// goes back to the spare slot once its last line was dropped.
type sbBlock struct {
	data []byte // nil while the block is compressed
	live int    // lines stored in it
	// z is the block compressed (sbcompress.go), nil while it is raw;
	// stamp tells a reuse of the slot from the block the decode cache
	// holds, and a filled block from the one queued for compression.
	z     []byte
	stamp uint32
}

// noBlock is the block index of no block.
const noBlock = ^uint32(0)

// sbLine is one line of scrollback: a window into a block. It holds no
// pointers (the block is an index into scrollback.blocks, combining marks
// live in scrollback.combs), so that storing one needs no write barrier and
// the ring is not scanned by the garbage collector.
type sbLine struct {
	off, n  uint32
	blk     uint32 // index into scrollback.blocks
	wrapped bool
	hasComb bool // combining marks in scrollback.combs
}

func (r *sbLine) cost() int { return int(r.n) + lineOverheadBytes }

// scrollback is a ring of encoded lines bounded by bytes: a line costs its
// encoded size plus lineOverheadBytes, and the oldest lines are dropped
// first so that the total stays within the limit. The storage itself
// exceeds the accounted bytes by at most two partly used blocks. Pushing a
// line in steady state allocates nothing.
type scrollback struct {
	limit     int // bytes; <= 0 disables scrollback
	blockSize int
	recs      []sbLine // ring; len(recs) is 0 or a power of two
	head      int      // index of the oldest record in recs
	count     int
	bytes     int
	blocks    []sbBlock // referenced by index; a nil data slot is free
	free      []uint32  // free slots of blocks
	cur       uint32    // block being filled, or noBlock
	spare     uint32    // an emptied block kept for reuse, or noBlock
	// combs holds the combining marks of lines, by sequence number: the
	// oldest line has number seq, the next seq+1, ...
	combs   map[uint64]map[int]string
	seq     uint64
	enc     []byte // scratch for encoding
	evicted uint64 // lines dropped because of the limit
	// gen changes whenever lines already pushed change or go other than
	// by eviction (popNewest, clear, reflow, pushEncoded): an incremental
	// export (ExportHistorySince) made before must then start over.
	gen uint64
	zc  compactor // compression of the blocks far out of view
}

func newScrollback(limit int) scrollback {
	return scrollback{limit: limit, blockSize: clamp(limit/16, 1024, 64<<10), cur: noBlock, spare: noBlock, zc: newCompactor()}
}

func (s *scrollback) len() int { return s.count }

// at returns line i, 0 being the oldest.
func (s *scrollback) at(i int) *sbLine { return &s.recs[(s.head+i)&(len(s.recs)-1)] }

// data returns the encoded cells of r. The bytes of a compressed block are
// valid until the next call (they live in the decode cache).
func (s *scrollback) data(r *sbLine) []byte {
	b := s.blocks[r.blk].data
	if b == nil {
		b = s.inflate(r.blk)
	}
	if int(r.off+r.n) > len(b) {
		return nil // a block that did not decode: the line reads as blank
	}
	return b[r.off : r.off+r.n]
}

// comb returns the combining marks of line i (nil if none), by column.
func (s *scrollback) comb(i int) map[int]string {
	if !s.at(i).hasComb {
		return nil
	}
	return s.combs[s.seq+uint64(i)]
}

// push appends a copy of l (trailing blanks trimmed) as the newest line.
func (s *scrollback) push(l *line, st *styleTable, links *linkTable) {
	if s.limit <= 0 {
		return
	}
	n := min(int(l.hi), len(l.cells))
	for n > 0 && l.cells[n-1] == (cell{}) {
		n--
	}
	k := s.pushPlain(l, n)
	if k == n {
		return
	}
	bi, off, size, ok := s.encodeInPlace(l.cells[:n], k, st, links)
	if !ok {
		s.enc = encodeCells(s.enc[:0], l.cells[:n], st, links)
		for len(s.enc)+lineOverheadBytes > s.limit && n > 0 {
			// Only with absurdly small limits: keep what fits.
			n = min(n-1, n*(s.limit-lineOverheadBytes)/len(s.enc))
			n = max(n, 0)
			s.enc = encodeCells(s.enc[:0], l.cells[:n], st, links)
		}
		size = len(s.enc)
		if size+lineOverheadBytes > s.limit {
			return
		}
	}
	cost := size + lineOverheadBytes
	for s.count > 0 && s.bytes+cost > s.limit {
		s.evict() // never touches the current block's data
		s.evicted++
	}
	if !ok {
		bi = s.room(size)
		off = len(s.blocks[bi].data)
		s.blocks[bi].data = append(s.blocks[bi].data, s.enc...)
	} else {
		s.blocks[bi].data = s.blocks[bi].data[:off+size]
	}
	s.blocks[bi].live++
	if s.count == len(s.recs) {
		s.growRecs()
	}
	rec := sbLine{blk: bi, off: uint32(off), n: uint32(size), wrapped: l.wrapped}
	if l.comb != nil {
		var comb map[int]string
		for k, v := range l.comb {
			if k < n {
				if comb == nil {
					comb = make(map[int]string, len(l.comb))
				}
				comb[k] = v
			}
		}
		if comb != nil {
			if s.combs == nil {
				s.combs = make(map[uint64]map[int]string)
			}
			s.combs[s.seq+uint64(s.count)] = comb
			rec.hasComb = true
		}
	}
	s.recs[(s.head+s.count)&(len(s.recs)-1)] = rec
	s.count++
	s.bytes += cost
}

// pushPlain is push for the common case of a line of n printable ASCII
// cells in the default style, which encodes as one byte a cell: it writes
// them straight into the current block and returns n. Otherwise it stores
// nothing and returns how many leading cells it wrote into the free part of
// the current block before finding another kind of cell (-1 when the block
// has no room for n bytes): encodeInPlace can continue from there.
func (s *scrollback) pushPlain(l *line, n int) int {
	if s.cur == noBlock || l.comb != nil {
		return -1
	}
	bi := s.cur
	blk := &s.blocks[bi]
	off := len(blk.data)
	if cap(blk.data)-off < n {
		return -1
	}
	dst := blk.data[off : off+n]
	// The line's plain prefix needs no check (printRun wrote it).
	p := min(int(l.plain), n)
	for k, c := range l.cells[:p] {
		dst[k] = byte(c.ch)
	}
	for k := p; k < n; k++ {
		c := l.cells[k]
		if c.style != 0 || c.flags != 0 || uint32(c.ch)-0x20 >= 0x7f-0x20 {
			return k
		}
		dst[k] = byte(c.ch)
	}
	cost := n + lineOverheadBytes
	if cost > s.limit {
		return 0
	}
	for s.count > 0 && s.bytes+cost > s.limit {
		s.evict() // never touches the current block's data
		s.evicted++
	}
	blk = &s.blocks[bi]
	blk.data = blk.data[:off+n]
	blk.live++
	if s.count == len(s.recs) {
		s.growRecs()
	}
	s.recs[(s.head+s.count)&(len(s.recs)-1)] = sbLine{blk: bi, off: uint32(off), n: uint32(n), wrapped: l.wrapped}
	s.count++
	s.bytes += cost
	return n
}

// encodeInPlace encodes cells into the free part of the current block,
// without committing them, continuing after the first k cells that
// pushPlain already wrote there (k < 0: none, and the block has no room).
// It returns the block, the offset and the size of the encoding; ok is
// false, and nothing is stored, when the block has no room or the line
// alone would exceed the limit.
func (s *scrollback) encodeInPlace(cells []cell, k int, st *styleTable, links *linkTable) (bi uint32, off, size int, ok bool) {
	if k < 0 {
		return 0, 0, 0, false
	}
	bi = s.cur
	blk := &s.blocks[bi]
	off = len(blk.data)
	free := blk.data[off:cap(blk.data)]
	size = k
	if k < len(cells) {
		// The cells so far had the default style, which is where
		// encodeCells starts.
		s.enc = encodeCells(s.enc[:0], cells[k:], st, links)
		if len(s.enc) > len(free)-k {
			return 0, 0, 0, false
		}
		size += copy(free[k:], s.enc)
	}
	if size+lineOverheadBytes > s.limit {
		return 0, 0, 0, false
	}
	return bi, off, size, true
}

// room returns the index of a block with room for n more bytes.
func (s *scrollback) room(n int) uint32 {
	if s.cur != noBlock {
		c := &s.blocks[s.cur]
		if cap(c.data)-len(c.data) >= n {
			return s.cur
		}
		if c.live == 0 {
			c.data = c.data[:0]
			if cap(c.data) >= n {
				return s.cur
			}
		}
	}
	if sp := s.spare; sp != noBlock && cap(s.blocks[sp].data) >= n {
		s.spare = noBlock
		return s.setCur(sp)
	}
	var bi uint32
	if k := len(s.free); k > 0 {
		bi = s.free[k-1]
		s.free = s.free[:k-1]
	} else {
		s.blocks = append(s.blocks, sbBlock{})
		bi = uint32(len(s.blocks) - 1)
	}
	s.blocks[bi] = sbBlock{data: make([]byte, 0, max(s.blockSize, n))}
	return s.setCur(bi)
}

// setCur makes bi the block being filled, freeing the previous one if it
// holds no line, or else queueing it for compression.
func (s *scrollback) setCur(bi uint32) uint32 {
	old := s.cur
	s.cur = bi
	if old != noBlock && old != bi {
		if s.blocks[old].live == 0 {
			s.drop(old)
		} else {
			s.filled(old)
		}
	}
	return bi
}

// drop frees the storage of block bi (which holds no line).
func (s *scrollback) drop(bi uint32) {
	s.keepZ(s.blocks[bi].z)
	s.blocks[bi] = sbBlock{}
	s.free = append(s.free, bi)
}

// release notes that a line of block bi is gone.
func (s *scrollback) release(bi uint32) {
	blk := &s.blocks[bi]
	blk.live--
	if blk.live == 0 && bi != s.cur {
		s.emptied(bi)
	}
}

// emptied keeps block bi, which holds no line any more, as the spare or
// frees it.
func (s *scrollback) emptied(bi uint32) {
	blk := &s.blocks[bi]
	if blk.data == nil { // compressed: no buffer to reuse
		s.drop(bi)
		return
	}
	blk.data = blk.data[:0]
	switch {
	case s.spare == noBlock:
		s.spare = bi
	case cap(blk.data) > cap(s.blocks[s.spare].data):
		s.drop(s.spare)
		s.spare = bi
	default:
		s.drop(bi)
	}
}

func (s *scrollback) growRecs() {
	size := 2 * len(s.recs)
	if size < 64 {
		size = 64
	}
	recs := make([]sbLine, size)
	for i := 0; i < s.count; i++ {
		recs[i] = *s.at(i)
	}
	s.recs = recs
	s.head = 0
}

// evict drops the oldest line.
func (s *scrollback) evict() {
	r := s.at(0)
	s.bytes -= r.cost()
	s.release(r.blk)
	if r.hasComb {
		delete(s.combs, s.seq)
	}
	s.seq++
	s.head = (s.head + 1) & (len(s.recs) - 1)
	s.count--
	if s.count == 0 {
		s.head, s.bytes = 0, 0
	}
}

// decode appends the cells of line r (at most max).
func (s *scrollback) decode(dst []cell, r *sbLine, max int, intern internFunc) []cell {
	return decodeCells(dst, s.data(r), max, intern)
}

// popNewest removes the newest line and copies it into l (which must already
// have its final width), interning its styles with intern.
func (s *scrollback) popNewest(l *line, intern internFunc) bool {
	if s.count == 0 {
		return false
	}
	r := s.at(s.count - 1)
	l.reset(0)
	l.own()
	cells := s.decode(l.cells[:0], r, len(l.cells), intern)
	n := len(cells)
	l.touch(n)
	l.wrapped = r.wrapped
	if r.hasComb {
		seq := s.seq + uint64(s.count-1)
		for k, v := range s.combs[seq] {
			if k < n {
				if l.comb == nil {
					l.comb = make(map[int]string)
				}
				l.comb[k] = v
				l.cells[k].flags |= cellComb
			}
		}
		delete(s.combs, seq)
	}
	if n > 0 && l.cells[n-1].flags&cellWide != 0 && (n == len(l.cells) || l.cells[n].flags&cellCont == 0) {
		l.cells[n-1] = cell{style: l.cells[n-1].style}
	}
	s.gen++
	s.bytes -= r.cost()
	if blk := &s.blocks[r.blk]; r.blk == s.cur && int(r.off+r.n) == len(blk.data) {
		blk.data = blk.data[:r.off]
	}
	s.release(r.blk)
	*r = sbLine{}
	s.count--
	if s.count == 0 {
		s.head, s.bytes = 0, 0
	}
	return true
}

// clear drops all lines (ED 3, RIS) and frees the storage.
func (s *scrollback) clear() {
	for i := 0; i < s.count; i++ {
		*s.at(i) = sbLine{}
	}
	s.seq += uint64(s.count)
	s.gen++
	s.head, s.count, s.bytes = 0, 0, 0
	s.blocks, s.free = nil, nil
	s.cur, s.spare = noBlock, noBlock
	s.combs = nil
	s.zc.reset()
}
