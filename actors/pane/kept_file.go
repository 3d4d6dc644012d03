package pane

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// A pane's kept lines are two files in the history folder:
//
//	<key>.lines   records appended as lines scroll off (a full export
//	              starts the file over; compaction rewrites it bounded)
//	<key>.screen  one record: the screen's rows, replaced at each save
//
// A record is "K" | uvarint end | uvarint length | an emulator history
// export (which carries its own CRC). end is the export's mark: a screen
// saved before the lines that scrolled off it were appended leaves those
// rows out at restore. A file cut short or damaged restores the records
// before the damage. <key>.gz is the single gzip file of older builds,
// read when no .lines file is there.

const (
	// LinesSuffix and ScreenSuffix end the names of a key's two files.
	LinesSuffix  = ".lines"
	ScreenSuffix = ".screen"
	// KeptSuffix ends the older builds' single file of a key.
	KeptSuffix = ".gz"
)

// keptRecordTag starts every record.
const keptRecordTag = 'K'

// KeptBase is the path of key's files in dir, without their suffix.
func KeptBase(dir, key string) string { return filepath.Join(dir, key) }

// KeptPath is the older builds' file of key's lines in dir.
func KeptPath(dir, key string) string { return KeptBase(dir, key) + KeptSuffix }

// appendKeptRecord appends one record of export data saved at mark end.
func appendKeptRecord(b []byte, end uint64, data []byte) []byte {
	b = append(b, keptRecordTag)
	b = binary.AppendUvarint(b, end)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// keptRecord is one record read back.
type keptRecord struct {
	end  uint64
	data []byte
	rows int // its lines, where known (the writer's queue)
}

// readKeptRecords parses b's records; damage says why it stopped before
// the end (the records before it are returned).
func readKeptRecords(b []byte) (recs []keptRecord, damage error) {
	for off := 0; off < len(b); {
		if b[off] != keptRecordTag {
			return recs, fmt.Errorf("no record at byte %d", off)
		}
		end, n := binary.Uvarint(b[off+1:])
		if n <= 0 {
			return recs, fmt.Errorf("record at byte %d cut short", off)
		}
		size, m := binary.Uvarint(b[off+1+n:])
		start := off + 1 + n + m
		if m <= 0 || size > uint64(len(b)-start) {
			return recs, fmt.Errorf("record at byte %d cut short", off)
		}
		data := b[start : start+int(size)]
		if err := emulator.CheckHistory(data); err != nil {
			return recs, fmt.Errorf("record at byte %d: %w", off, err)
		}
		recs = append(recs, keptRecord{end: end, data: data})
		off = start + int(size)
	}
	return recs, nil
}

// readOwnFile reads a regular file (a symlink, FIFO or device is refused
// without being opened) within bound bytes, and its time.
func readOwnFile(path string, bound int64) ([]byte, time.Time, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	if !info.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("%s: not a regular file (%s)", path, info.Mode().Type())
	}
	b, err := protocol.ReadRegularFile(path, bound)
	return b, info.ModTime(), err
}

// KeptRead is a pane's kept lines read back.
type KeptRead struct {
	Data []byte    // one history export, for ImportHistory; nil: nothing kept
	At   time.Time // when they were last saved
	// Damage says what was left out of a file cut short or damaged (what
	// came before it is in Data).
	Damage error
}

// ReadKept reads the kept lines at base (KeptBase): the newest maxRows
// lines of <base>.lines (<= 0: all), then <base>.screen; or, without a
// .lines file, an older build's <base>.gz. limit is the scrollback's
// bytes, which bounds what is read. A missing file is fs.ErrNotExist.
func ReadKept(base string, maxRows, limit int) (KeptRead, error) {
	bound := 3 * linesBound(limit) // a .lines file is compacted past twice its bound
	lines, at, err := readOwnFile(base+LinesSuffix, bound)
	if errors.Is(err, fs.ErrNotExist) {
		data, at, err := ReadLinesFile(base+KeptSuffix, limit)
		return KeptRead{Data: data, At: at}, err
	}
	if err != nil {
		return KeptRead{}, err
	}
	var r KeptRead
	r.At = at
	recs, damage := readKeptRecords(lines)
	if damage != nil {
		r.Damage = fmt.Errorf("%s: %w", base+LinesSuffix, damage)
	}
	parts := make([]emulator.HistoryPart, 0, len(recs)+1)
	var end uint64
	for _, rec := range recs {
		parts = append(parts, emulator.HistoryPart{Data: rec.data})
		end = rec.end
	}
	joined, err := emulator.JoinHistory(parts, maxRows)
	if err != nil {
		return KeptRead{}, err // every record was checked: not expected
	}
	// The screen, less the rows that scrolled off it into lines appended
	// after it was saved.
	screen, sat, serr := readOwnFile(base+ScreenSuffix, bound)
	switch {
	case errors.Is(serr, fs.ErrNotExist):
	case serr != nil:
		r.Damage = errors.Join(r.Damage, serr)
	default:
		srecs, sdamage := readKeptRecords(screen)
		if sdamage != nil || len(srecs) != 1 {
			r.Damage = errors.Join(r.Damage, fmt.Errorf("%s: %v", base+ScreenSuffix, cmpOr(sdamage, errors.New("not one record"))))
			break
		}
		skip := 0
		if s := srecs[0].end; end > s {
			skip = int(min(end-s, 1<<20))
		}
		if sat.After(r.At) {
			r.At = sat
		}
		// A screen saved at another width than the lines (a resize the
		// crash cut between the two files) is left out, not the lines.
		if lc, n := emulator.HistoryShape(joined); n > 0 {
			if sc, _ := emulator.HistoryShape(srecs[0].data); sc != lc {
				break
			}
		}
		if j, err := emulator.JoinHistory([]emulator.HistoryPart{{Data: joined}, {Data: srecs[0].data, Skip: skip}}, 0); err == nil {
			joined = j
		}
	}
	if _, n := emulator.HistoryShape(joined); n == 0 {
		return r, nil
	}
	r.Data = joined
	return r, nil
}

// cmpOr is the first error that is not nil.
func cmpOr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
