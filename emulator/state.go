package emulator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"
)

// Snapshot and Restore move a terminal's whole state to another process (a
// live handoff of a pane to a new server): everything that decides what a
// later Write, Read or Resize does, so that the restored terminal cannot be
// told from the original.
//
// The encoding is hand-rolled and versioned:
//
//	"hrdrvt" | uvarint version | fields, in the order of encodeState | CRC-32C of all before
//
// Numbers are uvarints (varints when they may be negative), strings and byte
// runs are length-prefixed. Scrollback lines travel in the scrollback's own
// encoding (scrollback.go), copied as they are in both directions, so a full
// 10 MB scrollback costs little more than two copies. Styles, hyperlinks and
// cells keep their ids: the restored tables are the same tables.
//
// A sequence cut by the end of a Write is carried: a CSI the fast path holds
// (pend) as its bytes, one the general parser holds as the bytes it was fed
// since it was last in its ground state (ptail), replayed into the new
// parser with its actions sent to a throwaway terminal (they were already
// applied). Only when that tail is longer than maxParserTail (a DCS image, an
// OSC over a megabyte), or while a kitty graphics APC is being read
// (kitty.go), does Snapshot refuse, with ErrSnapshotMidSequence; the next
// Write that completes the sequence makes it possible again. Program
// graphics (images and placements) are not carried.

// SnapshotVersion is the encoding version; Restore refuses any other.
const SnapshotVersion = 1

// snapshotMagic starts every snapshot.
const snapshotMagic = "hrdrvt"

// maxParserTail bounds the parser bytes a snapshot carries: the longest
// OSC the terminal acts on (a clipboard set) and then some.
const maxParserTail = maxClipboard + 256

// maxRestoreCells bounds cols×rows of a restored terminal, so that a
// corrupt size cannot ask for gigabytes.
const maxRestoreCells = 1 << 22

var (
	// ErrSnapshotVersion is returned by Restore for a snapshot of another
	// encoding version.
	ErrSnapshotVersion = errors.New("emulator: unsupported snapshot version")
	// ErrSnapshotCorrupt is returned by Restore for data that is not a
	// whole, intact snapshot.
	ErrSnapshotCorrupt = errors.New("emulator: corrupt snapshot")
	// ErrSnapshotMidSequence is returned by Snapshot while the parser holds
	// a sequence too long to carry; retry after the next Write.
	ErrSnapshotMidSequence = errors.New("emulator: snapshot: an escape sequence too long to carry is in progress")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot encodes the terminal's whole state: size, both screens (primary
// and, when active, alternate), the scrollback ring, styles table, pen,
// cursor (position, pending wrap, shape, visibility), scroll region, tab
// stops, modes, charsets, saved cursors, title, cwd, progress, hyperlinks,
// prompt marks, the view offset, the clipboard, the revision and line
// content versions (damage), and a sequence cut by the end of the last
// Write. It does not change the terminal. Take it between Writes.
func (t *Terminal) Snapshot() ([]byte, error) {
	if !t.ground && t.ptailLost || t.kitty != nil && t.kitty.apc.active {
		return nil, ErrSnapshotMidSequence
	}
	size := 256 + t.sb.bytes - (lineOverheadBytes-4)*t.sb.len() + 2*t.cols*t.rows + 16*len(t.styles.list) + t.links.bytes +
		len(t.title) + len(t.cwd) + len(t.rareGet().clipboard) + len(t.ptail)
	if t.alt != nil {
		size += 2 * t.cols * t.rows
	}
	b := make([]byte, 0, size)
	b = append(b, snapshotMagic...)
	b = binary.AppendUvarint(b, SnapshotVersion)
	b = t.encodeState(b)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Restore builds a terminal from a Snapshot; opts supplies what is not
// state (callbacks, the scrollback limit: with a smaller limit than the
// snapshot's, the oldest lines are dropped). No callback is called. A
// snapshot of another version, or a corrupt one, is an error, never a
// panic. The terminal keeps no reference to data.
func Restore(data []byte, opts Options) (*Terminal, error) {
	rest, ok := cutPrefix(data, snapshotMagic)
	if !ok {
		return nil, fmt.Errorf("%w: not a terminal snapshot", ErrSnapshotCorrupt)
	}
	v, n := binary.Uvarint(rest)
	if n <= 0 {
		return nil, fmt.Errorf("%w: no version", ErrSnapshotCorrupt)
	}
	if v != SnapshotVersion {
		return nil, fmt.Errorf("%w: snapshot is version %d, this build reads version %d", ErrSnapshotVersion, v, SnapshotVersion)
	}
	if len(data) < len(snapshotMagic)+n+4 {
		return nil, fmt.Errorf("%w: truncated", ErrSnapshotCorrupt)
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (truncated or damaged)", ErrSnapshotCorrupt)
	}
	return decodeState(body[len(snapshotMagic)+n:], opts)
}

func cutPrefix(b []byte, prefix string) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return nil, false
	}
	return b[len(prefix):], true
}

// modeFields lists the Modes bits in their encoded order; a new mode goes
// at the end (and a new SnapshotVersion if older builds must not ignore it).
func modeFields(m *Modes) [16]*bool {
	return [...]*bool{
		&m.AppCursor, &m.AppKeypad, &m.AutoWrap, &m.CursorVisible, &m.BracketedPaste,
		&m.MouseX10, &m.MouseNormal, &m.MouseButton, &m.MouseAny, &m.MouseUTF8, &m.MouseSGR,
		&m.FocusEvents, &m.SyncOutput, &m.AltScreen, &m.Origin, &m.Insert,
	}
}

// Bits of the packed flag words.
const (
	charsetG0 = 1 << iota
	charsetG1
	charsetShift
	charsetLineDrawing // t.lineDrawing (derived, but carried as is)
)

const (
	savedPendingWrap = 1 << iota
	savedOrigin
	savedValid
)

const (
	parserGround = 1 << iota
	parserPrevGround
)

// encodeState appends every field of the terminal; decodeState reads them
// back in the same order.
func (t *Terminal) encodeState(b []byte) []byte {
	b = putUints(b, uint64(t.cols), uint64(t.rows), uint64(t.x), uint64(t.y), boolBit(t.pendingWrap),
		uint64(t.top), uint64(t.bottom))
	m := t.modes
	var mb uint64
	for i, f := range modeFields(&m) {
		if *f {
			mb |= 1 << i
		}
	}
	b = putUints(b, mb, charsetBits(t.charsets, t.lineDrawing))
	tabs := make([]byte, (t.cols+7)/8)
	for i := range t.cols {
		if t.tabStop(i) {
			tabs[i/8] |= 1 << (i % 8)
		}
	}
	b = putBytes(b, tabs)
	for _, s := range []*savedCursor{&t.savedMain, &t.savedAlt} {
		fl := charsetBits(s.charsets, false) << 3
		if s.pendingWrap {
			fl |= savedPendingWrap
		}
		if s.origin {
			fl |= savedOrigin
		}
		if s.valid {
			fl |= savedValid
		}
		b = putUints(b, uint64(s.x), uint64(s.y), fl)
		b = putStyle(b, s.pen)
	}
	b = putUints(b, uint64(t.cursorShape), uint64(uint32(t.lastRune)))
	b = putString(b, t.title)
	b = putString(b, t.cwd)
	rare := t.rareGet()
	b = putString(b, rare.progress)
	b = putString(b, rare.clipboard)
	b = putUints(b, rare.clipboardSeq, uint64(t.mark.kind), boolBit(t.mark.valid))
	b = binary.AppendVarint(b, t.mark.absRow)
	b = binary.AppendVarint(b, int64(t.mark.col))
	b = binary.AppendVarint(b, int64(t.mark.exit))
	b = binary.AppendVarint(b, t.scrolled)
	b = putUints(b, uint64(t.view), t.bells, t.revision, t.ver)

	b = binary.AppendUvarint(b, uint64(len(t.links.list)))
	for _, l := range t.links.list {
		b = putString(b, l)
	}
	b = binary.AppendUvarint(b, uint64(len(t.styles.list)))
	for _, s := range t.styles.list {
		b = putStyle(b, s)
	}
	b = putStyle(b, t.pen)
	b = putUints(b, uint64(t.penID), uint64(t.eraseID))

	b = t.putScreen(b, t.primary)
	b = append(b, byte(boolBit(t.alt != nil)))
	if t.alt != nil {
		b = t.putScreen(b, t.alt)
	}
	// The spare alternate screen only saves an allocation, but whether it
	// is reused decides the versions the alternate screen's rows start at.
	var spareCols, spareRows int
	if t.altSpare != nil && len(t.altSpare.lines) > 0 {
		spareCols, spareRows = len(t.altSpare.lines[0].cells), len(t.altSpare.lines)
	}
	b = putUints(b, uint64(spareCols), uint64(spareRows))

	sb := &t.sb
	b = putUints(b, sb.evicted, uint64(sb.len()))
	for i := 0; i < sb.len(); i++ {
		r := sb.at(i)
		comb := sb.comb(i)
		b = putUints(b, uint64(r.n)<<2|boolBit(len(comb) > 0)<<1|boolBit(r.wrapped))
		b = append(b, sb.data(r)...)
		if len(comb) > 0 {
			b = putComb(b, comb)
		}
	}

	var pb uint64
	if t.ground {
		pb |= parserGround
	}
	if t.prevGround {
		pb |= parserPrevGround
	}
	b = binary.AppendUvarint(b, pb)
	var pend []byte
	if t.npend > 0 {
		pend = t.pend[:t.npend]
	}
	b = putBytes(b, pend)
	var tail []byte
	if !t.ground {
		tail = t.ptail
	}
	return putBytes(b, tail)
}

// putScreen appends the rows of s: version, used width, wrap flag, the used
// cells (character, then style id and flags byte in one number) and the
// combining marks. A blank row is saved at version 0: whether it shared
// the screen's blank record is not saved, and restored it does (reshare).
func (t *Terminal) putScreen(b []byte, s *screen) []byte {
	for _, l := range s.lines {
		hi := min(int(l.hi), len(l.cells))
		ver := l.ver
		if blankRecord(l) {
			ver = 0
		}
		b = putUints(b, ver, uint64(hi)<<1|boolBit(l.wrapped))
		for _, c := range l.cells[:hi] {
			b = putUints(b, uint64(uint32(c.ch)), uint64(c.style)<<8|uint64(c.flags))
		}
		b = putComb(b, l.comb)
	}
	return b
}

// putComb appends combining marks by column, in column order so that equal
// terminals encode to equal bytes.
func putComb(b []byte, comb map[int]string) []byte {
	b = binary.AppendUvarint(b, uint64(len(comb)))
	if len(comb) == 0 {
		return b
	}
	cols := make([]int, 0, len(comb))
	for k := range comb {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	for _, k := range cols {
		b = binary.AppendUvarint(b, uint64(k))
		b = putString(b, comb[k])
	}
	return b
}

func putStyle(b []byte, s style) []byte {
	return putUints(b, uint64(s.fg), uint64(s.bg), uint64(s.ul), uint64(s.link), uint64(s.attrs), uint64(s.under))
}

func putUints(b []byte, vs ...uint64) []byte {
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

func putBytes(b, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

func putString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func boolBit(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

func charsetBits(c charsets, lineDrawing bool) uint64 {
	var v uint64
	if c.g0 {
		v |= charsetG0
	}
	if c.g1 {
		v |= charsetG1
	}
	if c.shift {
		v |= charsetShift
	}
	if lineDrawing {
		v |= charsetLineDrawing
	}
	return v
}

func charsetsOf(v uint64) charsets {
	return charsets{g0: v&charsetG0 != 0, g1: v&charsetG1 != 0, shift: v&charsetShift != 0}
}

// snapReader reads the fields of a snapshot. The first problem sticks:
// later reads return zero values, and decodeState reports it once. Field
// names are constants and ctx says where they are (built into a message
// only on failure: the reads of cells must not allocate).
type snapReader struct {
	b   []byte
	err error
	ctx string
}

func (r *snapReader) fail(what string) {
	if r.err == nil {
		if r.ctx != "" {
			what = r.ctx + ": " + what
		}
		r.err = fmt.Errorf("%w: %s", ErrSnapshotCorrupt, what)
	}
}

// uint reads a uvarint no larger than max.
func (r *snapReader) uint(max uint64, what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what + ": truncated")
		return 0
	}
	r.b = r.b[n:]
	if v > max {
		r.fail(fmt.Sprintf("%s: %d out of range", what, v))
		return 0
	}
	return v
}

// int reads a uvarint in [0, max].
func (r *snapReader) int(max int, what string) int { return int(r.uint(uint64(max), what)) }

// varint reads a varint in [lo, hi].
func (r *snapReader) varint(lo, hi int64, what string) int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(what + ": truncated")
		return 0
	}
	r.b = r.b[n:]
	if v < lo || v > hi {
		r.fail(fmt.Sprintf("%s: %d out of range", what, v))
		return 0
	}
	return v
}

// bytes returns the next length-prefixed run, aliasing the input.
func (r *snapReader) bytes(max int, what string) []byte {
	return r.raw(r.int(max, what), what)
}

// raw returns the next n bytes, aliasing the input.
func (r *snapReader) raw(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail(what + ": truncated")
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *snapReader) string(max int, what string) string { return string(r.bytes(max, what)) }

// style reads a style. Its link may be past the end of the link table:
// RIS empties the table but not the style table (linkTable.get reads such
// an id as no link). Its underline is any byte, as the scrollback decoder
// would take it.
func (r *snapReader) style() style {
	return style{
		fg:    color(r.uint(math.MaxUint32, "style fg")),
		bg:    color(r.uint(math.MaxUint32, "style bg")),
		ul:    color(r.uint(math.MaxUint32, "style underline colour")),
		link:  uint16(r.uint(maxLinks, "style link")),
		attrs: uint16(r.uint(math.MaxUint16, "style attributes")),
		under: uint8(r.uint(255, "style underline")),
	}
}

func (r *snapReader) comb(cols int) map[int]string {
	n := r.int(len(r.b)/2, "combining marks")
	if n == 0 {
		return nil
	}
	comb := make(map[int]string, n)
	for i := 0; i < n && r.err == nil; i++ {
		k := r.int(cols-1, "combining mark column")
		comb[k] = r.string(len(r.b), "combining mark")
	}
	return comb
}

// decodeState reads what encodeState wrote, checking every field, and
// builds the terminal.
func decodeState(data []byte, opts Options) (*Terminal, error) {
	if opts.ScrollbackLimitBytes == 0 {
		opts.ScrollbackLimitBytes = DefaultScrollbackLimitBytes
	}
	r := &snapReader{b: data}
	cols := r.int(65535, "columns")
	rows := r.int(65535, "rows")
	if r.err == nil && (cols < 1 || rows < 1 || cols*rows > maxRestoreCells || rows > len(r.b)) {
		r.fail(fmt.Sprintf("size %dx%d", cols, rows))
	}
	if r.err != nil {
		return nil, r.err
	}
	t := &Terminal{opts: opts, cols: cols, rows: rows}
	t.perf.t = t
	t.x = r.int(cols-1, "cursor column")
	t.y = r.int(rows-1, "cursor row")
	t.pendingWrap = r.uint(1, "pending wrap") == 1
	t.top = r.int(rows-1, "scroll region top")
	t.bottom = r.int(rows-1, "scroll region bottom")
	if t.top > t.bottom {
		r.fail("scroll region")
	}
	mb := r.uint(1<<16-1, "modes")
	for i, f := range modeFields(&t.modes) {
		*f = mb&(1<<i) != 0
	}
	cs := r.uint(15, "charsets")
	t.charsets, t.lineDrawing = charsetsOf(cs), cs&charsetLineDrawing != 0
	tabs := r.bytes((cols+7)/8, "tab stops")
	if r.err == nil && len(tabs) != (cols+7)/8 {
		r.fail("tab stops")
	}
	t.tabs = make([]bool, cols)
	custom := false
	for i := range t.tabs {
		t.tabs[i] = r.err == nil && tabs[i/8]&(1<<(i%8)) != 0
		custom = custom || t.tabs[i] != defaultTabStop(i)
	}
	if !custom {
		t.tabs = nil // the default stops need no array
	}
	saved := [...]*savedCursor{&t.savedMain, &t.savedAlt}
	for _, s := range saved {
		s.x = r.int(cols-1, "saved cursor column")
		s.y = r.int(rows-1, "saved cursor row")
		fl := r.uint(1<<6-1, "saved cursor flags")
		s.pendingWrap, s.origin, s.valid = fl&savedPendingWrap != 0, fl&savedOrigin != 0, fl&savedValid != 0
		s.charsets = charsetsOf(fl >> 3)
		s.pen = r.style()
	}
	t.cursorShape = CursorShape(r.int(int(CursorSteadyBar), "cursor shape"))
	t.lastRune = rune(uint32(r.uint(math.MaxUint32, "last character")))
	t.title = r.string(len(r.b), "title")
	t.cwd = r.string(len(r.b), "cwd")
	progress := r.string(len(r.b), "progress")
	clipboard := r.string(len(r.b), "clipboard")
	clipboardSeq := r.uint(math.MaxUint64, "clipboard sets")
	if progress != "" || clipboard != "" || clipboardSeq != 0 || t.rare != nil {
		rare := t.rareSet()
		rare.progress, rare.clipboard, rare.clipboardSeq = progress, clipboard, clipboardSeq
	}
	t.mark.kind = byte(r.uint(255, "prompt mark"))
	t.mark.valid = r.uint(1, "prompt mark set") == 1
	t.mark.absRow = r.varint(math.MinInt64, math.MaxInt64, "prompt mark row")
	t.mark.col = int(r.varint(math.MinInt32, math.MaxInt32, "prompt mark column"))
	t.mark.exit = int(r.varint(math.MinInt32, math.MaxInt32, "prompt mark exit code"))
	t.scrolled = r.varint(math.MinInt64, math.MaxInt64, "scrolled rows")
	t.view = r.int(math.MaxInt32, "view offset")
	t.bells = r.uint(math.MaxUint64, "bells")
	t.revision = r.uint(math.MaxUint64, "revision")
	t.ver = r.uint(math.MaxUint64, "line version")

	nlinks := r.int(min(maxLinks, len(r.b)), "links")
	for i := 0; i < nlinks && r.err == nil; i++ {
		l := r.string(len(r.b), "link")
		t.links.list = append(t.links.list, l)
		t.links.bytes += len(l)
	}
	if len(t.links.list) > 0 {
		// Rebuilt like compactLinks does: the last of equal entries wins.
		t.links.index = make(map[string]uint16, len(t.links.list))
		for i, l := range t.links.list {
			t.links.index[l] = uint16(i + 1)
		}
	}
	nstyles := r.int(min(maxStyles, len(r.b)), "styles")
	if r.err == nil && nstyles == 0 {
		r.fail("no default style")
	}
	list := make([]style, 0, nstyles)
	for i := 0; i < nstyles && r.err == nil; i++ {
		s := r.style()
		if i == 0 && s != (style{}) {
			r.fail("style 0 is not the default")
		}
		list = append(list, s)
	}
	t.styles = styleTableOf(list)
	t.pen = r.style()
	t.penID = uint16(r.int(max(nstyles-1, 0), "pen id"))
	t.eraseID = uint16(r.int(max(nstyles-1, 0), "erase id"))

	r.ctx = "primary screen"
	t.primary = r.screen(cols, rows, nstyles)
	t.scr = t.primary
	r.ctx = ""
	if r.uint(1, "alternate screen") == 1 {
		r.ctx = "alternate screen"
		t.alt = r.screen(cols, rows, nstyles)
		t.scr = t.alt
		r.ctx = ""
	}
	spareCols := r.int(65535, "spare screen columns")
	spareRows := r.int(65535, "spare screen rows")
	if r.err == nil && spareCols*spareRows > 0 {
		if spareCols*spareRows > maxRestoreCells {
			r.fail("spare screen size")
		} else {
			t.altSpare = newScreen(spareCols, spareRows)
		}
	}

	t.sb = newScrollback(opts.ScrollbackLimitBytes)
	evicted := r.uint(math.MaxUint64, "evicted lines")
	r.ctx = "scrollback"
	r.scrollback(&t.sb)
	r.ctx = ""
	t.sb.evicted += evicted

	pb := r.uint(3, "parser state")
	t.ground, t.prevGround = pb&parserGround != 0, pb&parserPrevGround != 0
	if pend := r.bytes(maxPendingCSI-1, "pending CSI"); len(pend) > 0 {
		t.npend = copy(t.pendBuf()[:], pend)
	}
	tail := r.bytes(maxParserTail, "parser tail")
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	if !t.ground && len(tail) > 0 {
		t.ptail = append([]byte(nil), tail...)
		// Replay the tail into the new parser; what it dispatches on the
		// way was already applied, so it goes to a throwaway terminal.
		t.perf.t = New(1, 1, Options{ScrollbackLimitBytes: -1})
		for _, c := range tail {
			t.vt().Next(c)
		}
		t.perf.t = t
	}
	return t, nil
}

// screen reads rows lines of cols cells whose style ids are below nstyles.
func (r *snapReader) screen(cols, rows, nstyles int) *screen {
	if r.err != nil {
		return nil
	}
	s := &screen{lines: make([]*line, rows)}
	s.setCols(cols)
	cells := make([]cell, cols*rows) // one allocation for the whole grid
	records := make([]line, rows)    // and one for its line records
	for y := range s.lines {
		l := &records[y]
		l.cells = cells[y*cols : (y+1)*cols : (y+1)*cols]
		s.lines[y] = l
		l.ver = r.uint(math.MaxUint64, "row version")
		hw := r.uint(uint64(cols)<<1|1, "row width")
		l.hi, l.wrapped = int32(hw>>1), hw&1 != 0
		if r.err == nil && int(l.hi) > len(r.b)/2 {
			r.fail("row width")
		}
		for x := 0; x < int(l.hi) && r.err == nil; x++ {
			ch := r.uint(math.MaxUint32, "character")
			sf := r.uint(uint64(nstyles-1)<<8|255, "cell style")
			l.cells[x] = cell{ch: rune(uint32(ch)), style: uint16(sf >> 8), flags: uint8(sf)}
		}
		l.comb = r.comb(cols)
		if r.err != nil {
			return nil
		}
	}
	s.reshare()
	return s
}

// reshare makes the blank rows of a restored screen share its blank
// record (they were saved at version 0, see putScreen).
func (s *screen) reshare() {
	for y, l := range s.lines {
		if blankRecord(l) {
			s.lines[y] = &s.blank
		}
	}
}

// blankRecord reports whether l reads as a blank row with nothing of its
// own to keep: what the screen's blank record reads as.
func blankRecord(l *line) bool { return l.hi == 0 && len(l.comb) == 0 && !l.wrapped }

// scrollback reads the scrollback lines into s (which drops the oldest
// when its limit is smaller than the snapshot's).
func (r *snapReader) scrollback(s *scrollback) {
	n := r.int(len(r.b), "lines") // a line takes a byte at least
	if r.err != nil {
		return
	}
	if n > len(s.recs) && s.limit > 0 {
		// Size the ring once instead of doubling it up to n.
		s.recs = make([]sbLine, 1<<bits.Len(uint(n-1)))
	}
	s.zc.paused = true
	defer func() { s.zc.paused = false }()
	for i := 0; i < n && r.err == nil; i++ {
		h := r.uint(uint64(len(r.b))<<2|3, "line")
		data := r.raw(int(h>>2), "line")
		var comb map[int]string
		if h&2 != 0 {
			comb = r.comb(maxDecodedCells)
		}
		if r.err == nil {
			s.pushEncoded(data, h&1 != 0, comb)
		}
	}
}

// pushEncoded appends a line already in the scrollback encoding as the
// newest, like push (data is copied).
func (s *scrollback) pushEncoded(data []byte, wrapped bool, comb map[int]string) {
	s.gen++
	cost := len(data) + lineOverheadBytes
	if s.limit <= 0 || cost > s.limit {
		return
	}
	for s.count > 0 && s.bytes+cost > s.limit {
		s.evict()
		s.evicted++
	}
	bi := s.room(len(data))
	off := len(s.blocks[bi].data)
	s.blocks[bi].data = append(s.blocks[bi].data, data...)
	s.blocks[bi].live++
	if s.count == len(s.recs) {
		s.growRecs()
	}
	rec := sbLine{blk: bi, off: uint32(off), n: uint32(len(data)), wrapped: wrapped}
	if len(comb) > 0 {
		if s.combs == nil {
			s.combs = make(map[uint64]map[int]string)
		}
		s.combs[s.seq+uint64(s.count)] = comb
		rec.hasComb = true
	}
	s.recs[(s.head+s.count)&(len(s.recs)-1)] = rec
	s.count++
	s.bytes += cost
}
