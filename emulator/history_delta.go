package emulator

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Incremental history: a terminal's kept lines written as they scroll off
// rather than copied whole. ExportHistorySince encodes the scrollback
// lines pushed since the last call (a mark says where it stopped) and,
// apart, the screen's used rows, each in ExportHistory's encoding; a
// writer appends the first and replaces the second. JoinHistory puts such
// parts back together as one history ImportHistory takes.

// HistoryMark is where an incremental export stopped. The zero mark is
// before everything: the next export is a full one.
type HistoryMark struct {
	set      bool
	gen, end uint64 // the scrollback's gen, and the number its next line gets
}

// End is the number of lines pushed into the scrollback up to the mark
// (counted within one full export's span: it only orders parts).
func (m HistoryMark) End() uint64 { return m.end }

// HistoryDelta is one incremental export.
type HistoryDelta struct {
	// Full says Lines is the whole kept scrollback (the lines since the
	// mark could not be told apart: the first export, a resize, a clear,
	// or more new lines than maxRows): what was written before goes.
	Full bool
	// Lines holds the scrollback lines pushed since the mark (newest
	// maxRows at most), Screen the primary screen's rows down to its last
	// used one; both in ExportHistory's encoding. Rows is Lines' count.
	Lines, Screen []byte
	Rows          int
	Mark          HistoryMark
}

// ExportHistorySince exports the scrollback lines pushed since mark and
// the screen (see HistoryDelta), keeping at most maxRows lines and
// maxBytes of them (as ExportHistory counts; <= 0: no bound of that
// kind). It copies and does not change the terminal; its cost is that of
// the new lines and the screen.
func (t *Terminal) ExportHistorySince(mark HistoryMark, maxRows, maxBytes int) HistoryDelta {
	sb := &t.sb
	end := sb.seq + uint64(sb.count)
	d := HistoryDelta{Mark: HistoryMark{set: true, gen: sb.gen, end: end}}
	from := 0
	if mark.set && mark.gen == sb.gen && mark.end <= end && end-mark.end <= uint64(sb.count) {
		from = sb.count - int(end-mark.end)
	} else {
		d.Full = true
	}
	if maxRows > 0 && sb.count-from > maxRows {
		from, d.Full = sb.count-maxRows, true
	}
	if maxBytes > 0 {
		budget, k := maxBytes, sb.count
		for k > from && budget-sb.at(k-1).cost() >= 0 {
			budget -= sb.at(k - 1).cost()
			k--
		}
		if k > from {
			from, d.Full = k, true
		}
	}
	d.Rows = sb.count - from
	size := len(historyMagic) + 32
	for i := from; i < sb.count; i++ {
		size += int(sb.at(i).n) + 4
	}
	b := make([]byte, 0, size)
	b = append(b, historyMagic...)
	b = putUints(b, HistoryVersion, uint64(t.cols), uint64(d.Rows))
	for i := from; i < sb.count; i++ {
		r := sb.at(i)
		b = putHistLine(b, sb.data(r), r.wrapped, sb.comb(i))
	}
	d.Lines = binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	d.Screen = t.exportScreen()
	return d
}

// exportScreen encodes the primary screen's rows down to its last used
// one in ExportHistory's encoding.
func (t *Terminal) exportScreen() []byte {
	rows := t.primary.lines
	last := len(rows) - 1
	for last >= 0 && rows[last].used() == 0 {
		last--
	}
	b := append(make([]byte, 0, 64+(last+1)*(t.cols+4)), historyMagic...)
	b = putUints(b, HistoryVersion, uint64(t.cols), uint64(last+1))
	var enc []byte
	for _, l := range rows[:last+1] {
		n := l.used()
		enc = encodeCells(enc[:0], l.cells[:n], &t.styles, &t.links)
		var comb map[int]string
		for k, v := range l.comb {
			if k < n {
				if comb == nil {
					comb = map[int]string{}
				}
				comb[k] = v
			}
		}
		b = putHistLine(b, enc, l.wrapped, comb)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// putHistLine appends one line of the history encoding.
func putHistLine(b, data []byte, wrapped bool, comb map[int]string) []byte {
	b = putUints(b, uint64(len(data))<<2|boolBit(len(comb) > 0)<<1|boolBit(wrapped))
	b = append(b, data...)
	if len(comb) > 0 {
		b = putComb(b, comb)
	}
	return b
}

// HistoryPart is one part of a history to join: an export (ExportHistory's
// encoding) and how many of its first lines to leave out.
type HistoryPart struct {
	Data []byte
	Skip int
}

// JoinHistory checks parts and joins them, oldest first, into one history
// of their newest maxRows lines at most (<= 0: all). Parts saved at
// another width than the last one are left out (they come before a
// resize, whose export starts over). A part that is not intact is an error.
func JoinHistory(parts []HistoryPart, maxRows int) ([]byte, error) {
	type decoded struct {
		cols  int
		lines []histLine
	}
	ds := make([]decoded, 0, len(parts))
	for i, p := range parts {
		cols, lines, err := decodeHistory(p.Data)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i+1, err)
		}
		lines = lines[min(max(p.Skip, 0), len(lines)):]
		ds = append(ds, decoded{cols, lines})
	}
	cols, total := 80, 0
	if len(ds) > 0 {
		cols = ds[len(ds)-1].cols
	}
	first := len(ds)
	for first > 0 && ds[first-1].cols == cols {
		first--
		total += len(ds[first].lines)
	}
	ds = ds[first:]
	skip := 0
	if maxRows > 0 && total > maxRows {
		skip, total = total-maxRows, maxRows
	}
	b := append(make([]byte, 0, 64), historyMagic...)
	b = putUints(b, HistoryVersion, uint64(cols), uint64(total))
	for _, d := range ds {
		for _, l := range d.lines {
			if skip > 0 {
				skip--
				continue
			}
			b = putHistLine(b, l.data, l.wrapped, l.comb)
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// HistoryShape is the width and number of lines of an intact export (0s
// for data that is not one).
func HistoryShape(data []byte) (cols, lines int) {
	cols, ls, err := decodeHistory(data)
	if err != nil {
		return 0, 0
	}
	return cols, len(ls)
}
