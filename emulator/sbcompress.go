package emulator

import (
	"math"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// Scrollback far out of view is kept compressed. A block that stops being
// the one filled joins a queue, and Compact (which the pane calls once its
// output went quiet, and every few seconds of a flood) compresses the
// queued blocks (s2: about 0.5–1 GB/s each way); the write path itself
// compresses nothing, so a flood runs at the speed it had (compressing as
// blocks filled cost text floods about a third) and only what is still
// kept when Compact runs is compressed, once. compactor.hot can make
// filled blocks compress as they fill (beyond the newest hot ones; the
// tests do). Reads of a compressed block (pane.read, search, copy mode,
// export, snapshot, reflow) go through data, which decodes the whole block
// into a one-block cache: they walk lines in order, so a block is decoded
// once per pass. The byte limit still counts the encoded lines, so which
// lines are kept does not depend on how well they compress.

// defaultHotBlocks leaves every filled block to Compact.
const defaultHotBlocks = math.MaxInt

// compactor is the compression state of one scrollback.
type compactor struct {
	hot int // filled blocks kept raw; < 0: never compress
	// paused leaves filled blocks queued, uncompressed: a restore, an
	// import or a reflow (which fill the whole scrollback at once) are
	// not slowed down by it; the blocks are compressed a few at a time as
	// new ones fill, and all at once by Compact.
	paused bool
	queue  []queuedBlk // filled raw blocks, oldest first
	stamps uint32      // the last stamp handed out
	// The decode cache: block cacheBlk (when its stamp is cacheStamp)
	// decoded.
	cache      []byte
	cacheBlk   uint32
	cacheStamp uint32
	// zspare is the compressed buffer of a dropped block, reused for the
	// next compression that fits, so a scrollback in steady state (a
	// block compressed as one is evicted) allocates nothing.
	zspare []byte
}

type queuedBlk struct{ blk, stamp uint32 }

func newCompactor() compactor { return compactor{hot: defaultHotBlocks, cacheBlk: noBlock} }

func (c *compactor) stamp() uint32 {
	c.stamps++
	return c.stamps
}

// reset forgets the queue and the cache (the blocks are gone).
func (c *compactor) reset() {
	c.queue = c.queue[:0]
	c.cache, c.cacheBlk = nil, noBlock
}

// encScratch holds the output of s2 before it is copied to its exact size:
// shared by every terminal, so that none keeps one while idle.
var encScratch = sync.Pool{New: func() any { return new([]byte) }}

// filled queues block bi, which stopped being filled, for compression and
// compresses the oldest queued ones beyond the hot window.
func (s *scrollback) filled(bi uint32) {
	c := &s.zc
	if c.hot < 0 {
		return
	}
	st := c.stamp()
	s.blocks[bi].stamp = st
	if len(c.queue) >= 2*len(s.blocks)+8 {
		// Blocks dropped before a Compact leave entries behind: the
		// queue holds no more than the live blocks, twice over.
		live := c.queue[:0]
		for _, q := range c.queue {
			if b := &s.blocks[q.blk]; b.stamp == q.stamp && b.data != nil && b.live > 0 {
				live = append(live, q)
			}
		}
		c.queue = live
	}
	c.queue = append(c.queue, queuedBlk{bi, st})
	// Two at most: one keeps up with a flood, the other works off what a
	// pause left.
	for k := 0; k < 2 && !c.paused && len(c.queue) > c.hot; k++ {
		q := c.queue[0]
		c.queue = append(c.queue[:0], c.queue[1:]...)
		s.compress(q)
	}
}

// compress compresses the queued block q if it still holds lines and is
// raw. A block that does not shrink by an eighth stays raw.
func (s *scrollback) compress(q queuedBlk) {
	blk := &s.blocks[q.blk]
	if blk.stamp != q.stamp || blk.data == nil || blk.live == 0 || q.blk == s.cur {
		return
	}
	p := encScratch.Get().(*[]byte)
	defer encScratch.Put(p)
	if need := s2.MaxEncodedLen(len(blk.data)); need < 0 {
		return
	} else if cap(*p) < need {
		*p = make([]byte, need)
	}
	enc := s2.Encode((*p)[:cap(*p)], blk.data)
	if len(enc) > len(blk.data)-len(blk.data)/8 {
		return
	}
	z := s.zc.zspare
	if cap(z) >= len(enc) && cap(z) <= 2*len(enc) {
		s.zc.zspare = nil
	} else {
		// Room to spare, so that the block compressed as this one is
		// evicted most likely fits in it.
		z = make([]byte, 0, len(enc)+len(enc)/8)
	}
	z = append(z[:0], enc...)
	raw := blk.data
	blk.data, blk.z, blk.stamp = nil, z, s.zc.stamp()
	s.keepRaw(raw)
}

// keepRaw keeps the buffer of a block just compressed as the spare, when
// there is none, so the next block needs no allocation.
func (s *scrollback) keepRaw(raw []byte) {
	if s.spare != noBlock {
		return
	}
	var bi uint32
	if k := len(s.free); k > 0 {
		bi = s.free[k-1]
		s.free = s.free[:k-1]
	} else {
		s.blocks = append(s.blocks, sbBlock{})
		bi = uint32(len(s.blocks) - 1)
	}
	s.blocks[bi] = sbBlock{data: raw[:0]}
	s.spare = bi
}

// keepZ keeps the compressed buffer of a dropped block for reuse.
func (s *scrollback) keepZ(z []byte) {
	if cap(z) > cap(s.zc.zspare) {
		s.zc.zspare = z[:0]
	}
}

// inflate returns the decoded bytes of compressed block bi (nil if they do
// not decode, which only a bug would cause).
func (s *scrollback) inflate(bi uint32) []byte {
	c := &s.zc
	blk := &s.blocks[bi]
	if c.cacheBlk == bi && c.cacheStamp == blk.stamp && c.cache != nil {
		return c.cache
	}
	n, err := s2.DecodedLen(blk.z)
	if err != nil {
		return nil
	}
	buf := c.cache
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	out, err := s2.Decode(buf[:cap(buf)], blk.z)
	if err != nil {
		c.cacheBlk = noBlock
		return nil
	}
	c.cache, c.cacheBlk, c.cacheStamp = out, bi, blk.stamp
	return out
}

// compact compresses every filled block, the hot ones too, and lets go of
// the decode cache and the spare buffers: what a quiet terminal does. It
// returns the bytes of storage that let go of.
func (s *scrollback) compact() int {
	_, before := s.storage()
	c := &s.zc
	if c.hot >= 0 {
		for _, q := range c.queue {
			s.compress(q)
		}
		c.queue = c.queue[:0]
	}
	c.cache, c.cacheBlk, c.zspare = nil, noBlock, nil
	if sp := s.spare; sp != noBlock {
		s.spare = noBlock
		s.drop(sp)
		s.zc.zspare = nil
	}
	_, after := s.storage()
	return before - after
}

// ScrollbackStorage reports what the scrollback holds: the encoded bytes
// of its lines and the bytes its storage takes (raw blocks at their
// capacity, compressed blocks, the decode cache).
func (t *Terminal) ScrollbackStorage() (encoded, stored int) { return t.sb.storage() }

func (s *scrollback) storage() (encoded, stored int) {
	for i := range s.blocks {
		b := &s.blocks[i]
		stored += cap(b.data) + cap(b.z)
		if b.z != nil {
			if n, err := s2.DecodedLen(b.z); err == nil {
				encoded += n
			}
		} else {
			encoded += len(b.data)
		}
	}
	return encoded, stored + cap(s.zc.cache) + cap(s.zc.zspare)
}

// Compact makes a quiet terminal small: the whole scrollback but the
// block being filled is compressed, the buffers kept for the next output
// are let go (the alternate screen kept for the next full-screen program,
// the cells of blank rows, which read through blankCells again). Reads
// stay correct (and as they were); the pane calls it once its output has
// gone quiet. It returns the bytes it let go of.
func (t *Terminal) Compact() int {
	freed := t.sb.compact()
	if t.csi != nil {
		freed += int(unsafe.Sizeof(csiSeq{}))
		t.csi = nil
	}
	if s := t.altSpare; s != nil {
		for _, l := range s.lines {
			freed += 8 * cap(l.cells)
		}
		t.altSpare = nil
	}
	for _, scr := range []*screen{t.primary, t.alt} {
		if scr == nil {
			continue
		}
		for _, l := range scr.lines {
			// hi 0: every cell is the zero cell, as blankCells'.
			if l.hi == 0 && l.comb == nil && !l.shared() && len(l.cells) <= maxCols {
				freed += 8 * cap(l.cells)
				l.cells = blankCells[:len(l.cells):len(l.cells)]
			}
		}
	}
	return freed
}
