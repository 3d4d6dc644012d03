package pane

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Kept lines: a pane's lines (its scrollback and screen) outlive the
// server, on by default ([advanced] persist_scrollback_lines). When the
// keeper asks (SaveLines, at most every linesDelay, when the pane's
// record in the session's published View changed) and
// at the server's stop, a pane whose screen changed hands the writer the
// lines that scrolled off since its last hand and its screen
// (emulator.ExportHistorySince: a copy of the new lines, not of the
// whole history); the writer appends them off every actor (LinesWriter,
// kept_file.go). A restored pane reads its files on a goroutine of its
// own and puts the lines above its new program, with a marker line,
// before it applies the program's first output.

// KeepLines is a pane's part in kept lines.
type KeepLines struct {
	// Key names the pane's files; it stays the pane's across restarts.
	Key string
	// Rows bounds the lines kept (<= 0: the scrollback's bound only).
	Rows int
	// Hand takes an export of the pane's lines for the writer (its data
	// is the pane's to give away); it never blocks. false refuses an
	// export that is not full: the pane then hands a full one.
	Hand func(key string, d emulator.HistoryDelta) bool
	// From is the base path (KeptBase) a restored pane's lines are read
	// from ("": none).
	From string
}

// SaveLines asks a pane to hand its lines to KeepLines.Hand if they
// changed since it last did.
type SaveLines struct{}

// linesLoaded is the restored lines, read off the actor.
type linesLoaded struct {
	read KeptRead
	err  error
}

// keptLines is the pane's state of kept lines.
type keptLines struct {
	loading  bool // the restored lines are being read: output waits
	saved    bool
	savedRev uint64               // the emulator revision last handed
	mark     emulator.HistoryMark // where the last hand's lines stopped
}

// startLines starts reading the restored lines, if any; the pane's output
// waits until they are in.
func (p *Pane) startLines(ctx actor.Context) {
	k := p.spec.Keep
	if k == nil || k.From == "" {
		return
	}
	p.kept.loading = true
	root, self, base, rows, limit := ctx.ActorSystem().Root, ctx.Self(), k.From, k.Rows, p.spec.ScrollbackBytes
	go func() {
		r, err := ReadKept(base, rows, limit)
		root.Send(self, &linesLoaded{read: r, err: err})
	}()
}

// linesIn puts the restored lines in, then lets the output through.
func (p *Pane) linesIn(ctx actor.Context, msg *linesLoaded) {
	if !p.kept.loading {
		return
	}
	p.kept.loading = false
	switch {
	case errors.Is(msg.err, fs.ErrNotExist):
	case msg.err != nil:
		p.spec.Log.Warn("pane history not restored", "file", p.spec.Keep.From, "err", msg.err)
	default:
		if r := msg.read; r.Data != nil {
			if err := p.term.ImportHistory(r.Data, restoredMarker(r.At)); err != nil {
				p.spec.Log.Warn("pane history not restored", "file", p.spec.Keep.From, "err", err)
			}
		}
		switch r := msg.read; {
		case r.Damage != nil && r.Data == nil:
			p.spec.Log.Warn("pane history not restored: its files are damaged", "file", p.spec.Keep.From, "err", r.Damage)
		case r.Damage != nil:
			p.spec.Log.Warn("pane history partly restored: a file is cut short or damaged", "file", p.spec.Keep.From, "err", r.Damage)
		}
	}
	p.publishFacts(ctx)
	p.screenChanged(ctx)
	p.applyOutput(ctx) // what the program printed meanwhile
}

// restoredMarker is the line drawn between the restored lines and the new
// program.
func restoredMarker(at time.Time) string {
	if at.IsZero() || at.Unix() <= 0 {
		return "── history restored ──"
	}
	return "── history restored from " + at.Local().Format("2006-01-02 15:04") + " ──"
}

// saveLines hands the pane's new lines to the writer if they changed
// since the last time (or none were ever handed). A frozen pane hands
// nothing: the server it goes to writes its files from then on.
func (p *Pane) saveLines() {
	k := p.spec.Keep
	if k == nil || p.term == nil || p.kept.loading || p.freezer != nil {
		return // a pane still reading its lines must not write over them
	}
	rev := p.term.Revision()
	if p.kept.saved && rev == p.kept.savedRev {
		return
	}
	p.kept.saved, p.kept.savedRev = true, rev
	d := p.term.ExportHistorySince(p.kept.mark, k.Rows, p.spec.ScrollbackBytes)
	if !k.Hand(k.Key, d) {
		d = p.term.ExportHistorySince(emulator.HistoryMark{}, k.Rows, p.spec.ScrollbackBytes)
		k.Hand(k.Key, d)
	}
	p.kept.mark = d.Mark
}

// linesStopping saves the lines once more when the server stops (a pane
// closed while the server runs keeps nothing).
func (p *Pane) linesStopping() {
	if p.rt.shuttingDown.Load() {
		p.saveLines()
	}
}

// linesBound is the largest unpacked file read for a scrollback limit:
// the lines' cost is at most the limit, and their encoding smaller than
// their cost but for combining marks.
func linesBound(limit int) int64 {
	if limit <= 0 {
		limit = emulator.DefaultScrollbackLimitBytes
	}
	return 2*int64(limit) + 1<<20
}

// EncodeLinesFile packs an export of a pane's lines as a kept-lines file:
// gzip, its header's time the time of the save.
func EncodeLinesFile(data []byte, at time.Time) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(data)/4 + 64)
	zw, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	zw.ModTime = at
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadLinesFile reads a kept-lines file for a scrollback limit: a regular
// file only (a symlink, FIFO or device is refused without being opened),
// packed and unpacked within a bound, intact (emulator.CheckHistory). It
// returns the export and the time it was saved.
func ReadLinesFile(path string, limit int) ([]byte, time.Time, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	if !info.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("%s: not a regular file (%s)", path, info.Mode().Type())
	}
	bound := linesBound(limit)
	packed, err := protocol.ReadRegularFile(path, bound)
	if err != nil {
		return nil, time.Time{}, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, bound+1))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > bound {
		return nil, time.Time{}, fmt.Errorf("%s: unpacks to more than %d bytes", path, bound)
	}
	if err := emulator.CheckHistory(data); err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	return data, zr.ModTime, nil
}
