package emulator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"unicode/utf8"
)

// History export and import: a terminal's lines (its scrollback, then the
// used rows of its primary screen) in a form that outlives the terminal,
// so that a pane restarted by a new server can show what its old one
// showed. Unlike Snapshot it carries lines only (no cursor, modes, parser
// or tables): the new terminal runs a new program and keeps the old lines
// as scrollback above it.
//
//	"hrdrhist" | uvarint version | uvarint cols | uvarint lines | lines | CRC-32C of all before
//
// A line is uvarint(len<<2 | has-marks<<1 | wrapped), its cells in the
// scrollback's own encoding (scrollback.go: styles by value, so no table
// travels), then its combining marks when it has some. Scrollback lines
// are copied as they are stored.

// HistoryVersion is the history encoding's version; ImportHistory refuses
// any other.
const HistoryVersion = 1

const historyMagic = "hrdrhist"

// ErrHistoryCorrupt is returned by ImportHistory for data that is not a
// whole, intact history of this version.
var ErrHistoryCorrupt = errors.New("emulator: corrupt history")

// histLine is one line of an export or import.
type histLine struct {
	data    []byte
	wrapped bool
	comb    map[int]string
}

func (h *histLine) cost() int { return len(h.data) + lineOverheadBytes }

// ExportHistory encodes the scrollback and the primary screen's rows down
// to its last used one, keeping the newest lines whose cost (as the
// scrollback counts it: encoded size plus a fixed overhead per line) fits
// in maxBytes (<= 0: DefaultScrollbackLimitBytes). The alternate screen
// is left out: it belongs to the full-screen program of the moment. It
// copies and does not change the terminal.
func (t *Terminal) ExportHistory(maxBytes int) []byte {
	if maxBytes <= 0 {
		maxBytes = DefaultScrollbackLimitBytes
	}
	// The screen's rows, encoded here (the scrollback's are already).
	rows := t.primary.lines
	last := len(rows) - 1
	for last >= 0 && rows[last].used() == 0 {
		last--
	}
	screen := make([]histLine, 0, last+1)
	for _, l := range rows[:last+1] {
		n := l.used()
		h := histLine{data: encodeCells(nil, l.cells[:n], &t.styles, &t.links), wrapped: l.wrapped}
		for k, v := range l.comb {
			if k < n {
				if h.comb == nil {
					h.comb = map[int]string{}
				}
				h.comb[k] = v
			}
		}
		screen = append(screen, h)
	}
	// The newest lines that fit, counted from the bottom.
	budget, keptScreen := maxBytes, len(screen)
	for i := len(screen) - 1; i >= 0; i-- {
		if budget -= screen[i].cost(); budget < 0 {
			keptScreen = len(screen) - 1 - i
			break
		}
	}
	sb := &t.sb
	from := sb.len()
	if budget >= 0 {
		for from > 0 {
			c := sb.at(from - 1).cost()
			if budget-c < 0 {
				break
			}
			budget -= c
			from--
		}
	}
	screen = screen[len(screen)-keptScreen:]

	size := len(historyMagic) + 32
	for i := from; i < sb.len(); i++ {
		size += int(sb.at(i).n) + 4
	}
	for _, h := range screen {
		size += len(h.data) + 4
	}
	b := make([]byte, 0, size)
	b = append(b, historyMagic...)
	b = putUints(b, HistoryVersion, uint64(t.cols), uint64(sb.len()-from+len(screen)))
	put := func(data []byte, wrapped bool, comb map[int]string) {
		b = putUints(b, uint64(len(data))<<2|boolBit(len(comb) > 0)<<1|boolBit(wrapped))
		b = append(b, data...)
		if len(comb) > 0 {
			b = putComb(b, comb)
		}
	}
	for i := from; i < sb.len(); i++ {
		r := sb.at(i)
		put(sb.data(r), r.wrapped, sb.comb(i))
	}
	for _, h := range screen {
		put(h.data, h.wrapped, h.comb)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// used is the number of cells of l up to its last non-blank one.
func (l *line) used() int {
	n := min(int(l.hi), len(l.cells))
	for n > 0 && l.cells[n-1] == (cell{}) {
		n--
	}
	return n
}

// decodeHistory checks data whole and returns its width and lines (which
// share data's bytes). Nothing is applied before everything was read.
func decodeHistory(data []byte) (cols int, lines []histLine, err error) {
	rest, ok := cutPrefix(data, historyMagic)
	if !ok || len(data) < len(historyMagic)+4 {
		return 0, nil, fmt.Errorf("%w: not a terminal history", ErrHistoryCorrupt)
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return 0, nil, fmt.Errorf("%w: checksum mismatch (truncated or damaged)", ErrHistoryCorrupt)
	}
	r := &snapReader{b: rest[:len(rest)-4]}
	if v := r.uint(1<<16, "version"); r.err == nil && v != HistoryVersion {
		return 0, nil, fmt.Errorf("%w: version %d, this build reads version %d", ErrHistoryCorrupt, v, HistoryVersion)
	}
	cols = r.int(maxDecodedCells, "columns")
	n := r.int(len(r.b), "lines") // a line takes a byte at least
	if r.err == nil && cols < 1 {
		r.fail("columns")
	}
	if r.err == nil {
		lines = make([]histLine, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		h := r.uint(uint64(len(r.b))<<2|3, "line")
		l := histLine{data: r.raw(int(h>>2), "line"), wrapped: h&1 != 0}
		if h&2 != 0 {
			l.comb = r.comb(maxDecodedCells)
		}
		lines = append(lines, l)
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return 0, nil, fmt.Errorf("%w: %v", ErrHistoryCorrupt, r.err)
	}
	return cols, lines, nil
}

// CheckHistory reports whether data is an intact history ImportHistory
// takes.
func CheckHistory(data []byte) error {
	_, _, err := decodeHistory(data)
	return err
}

// ImportHistory puts the lines of an ExportHistory into the scrollback,
// as the newest, followed by marker (one line, drawn dim; "" for none),
// and re-wraps them from the width they were saved at to the terminal's.
// It is meant for a new terminal before its program's first output: the
// screen is left as it is. The scrollback limit applies (the oldest lines
// go first). Corrupt data is an error and changes nothing. marker's
// characters other than printable narrow ones are drawn as '?'.
func (t *Terminal) ImportHistory(data []byte, marker string) error {
	cols, lines, err := decodeHistory(data)
	if err != nil {
		return err
	}
	sb := &t.sb
	if sb.limit <= 0 {
		return nil
	}
	if n := sb.len() + len(lines) + 1; n > len(sb.recs) {
		recs := make([]sbLine, 1<<bits.Len(uint(n-1)))
		for i := 0; i < sb.len(); i++ {
			recs[i] = *sb.at(i)
		}
		sb.recs, sb.head = recs, 0
	}
	sb.zc.paused = true
	defer func() { sb.zc.paused = false }()
	for _, l := range lines {
		sb.pushEncoded(l.data, l.wrapped, l.comb)
	}
	if n := sb.len(); n > 0 {
		// The saved last line ends its logical line: neither the marker
		// nor the screen's first row is its sequel (and the re-wrap
		// needs an unwrapped newest line).
		sb.at(n - 1).wrapped = false
	}
	if marker != "" {
		sb.pushEncoded(t.encodeMarker(marker), false, nil)
	}
	if cols != t.cols {
		sb.reflow(cols, t.cols)
	}
	t.revision++
	return nil
}

// encodeMarker encodes text as one dim line in the scrollback encoding.
func (t *Terminal) encodeMarker(text string) []byte {
	b := appendStyle(nil, &style{attrs: attrDim}, &t.links)
	for _, r := range text {
		switch {
		case r >= 0x20 && r < 0x7f:
			b = append(b, byte(r))
		case r >= 0xa0 && utf8.ValidRune(r) && computeWidth(r) == 1:
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, '?')
		}
	}
	return b
}
