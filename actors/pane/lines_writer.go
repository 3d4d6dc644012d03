package pane

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// LinesWriter writes the panes' kept lines (kept_file.go) on a goroutine
// of its own: panes hand it exports (Hand, from their own goroutines,
// never waiting), the session the set of keys still in use (Keep), whose
// files alone stay. A full export starts a key's .lines file over, the
// others are appended to it; each hand replaces the .screen file. When a
// .lines file holds more than twice its bound (rows, or its share of the
// disk bound in bytes) the writer rewrites it with the newest lines within
// the bound: a compaction bounded by that size, once per bound's worth of
// output, on this goroutine. Nothing is synced: a killed server loses
// nothing the writer wrote; a machine that loses power may lose the last
// seconds. The mutex guards this queue alone, no actor's state.
type LinesWriter struct {
	dir       string
	log       *slog.Logger
	rows      int   // lines kept per pane (<= 0: no bound of rows)
	diskMax   int64 // bytes for all panes' files (<= 0: no bound)
	scrollMax int   // the scrollback's bytes, which bounds a read

	mu      sync.Mutex
	pending map[string]*keptJob
	started map[string]bool // keys whose .lines file this writer began (a full export queued or written)
	live    map[string]bool // the keys in use; nil until the session says
	prune   bool            // remove the files of other keys
	closed  bool
	flushes []chan struct{} // Flush calls waiting for the queue to be written

	wake chan struct{} // capacity 1
	done chan struct{} // closed when the writer has finished

	// The writer goroutine's own.
	files map[string]*keptFile
	dirOK bool
}

// keptJob is what a key has waiting to be written.
type keptJob struct {
	full   bool         // lines[0] starts the file over
	lines  []keptRecord // records to append, oldest first
	rows   int          // lines in them
	screen *keptRecord  // the newest screen
}

// keptFile is what the writer knows of a key's .lines file.
type keptFile struct {
	rows   int
	bytes  int64
	end    uint64 // the mark of its last record
	screen []byte // the screen record last written
}

// NewLinesWriter starts a writer of dir that keeps rows lines per pane and
// diskMax bytes for all (<= 0: no bound of that kind); scrollMax is the
// scrollback's bytes.
func NewLinesWriter(dir string, rows int, diskMax int64, scrollMax int, log *slog.Logger) *LinesWriter {
	w := &LinesWriter{dir: dir, log: log, rows: rows, diskMax: diskMax, scrollMax: scrollMax,
		pending: map[string]*keptJob{}, started: map[string]bool{}, files: map[string]*keptFile{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.run()
	return w
}

// Rows is the bound of lines kept per pane.
func (w *LinesWriter) Rows() int { return w.rows }

// Hand queues a pane's export; it never blocks. It reports false, and
// drops d, for an export that is not full while the key's file was not
// begun by this writer (or its last write failed): the pane then hands a
// full one.
func (w *LinesWriter) Hand(key string, d emulator.HistoryDelta) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return true
	}
	if !d.Full && !w.started[key] {
		return false
	}
	job := w.pending[key]
	if job == nil {
		job = &keptJob{}
		w.pending[key] = job
	}
	end := d.Mark.End()
	if d.Full {
		job.full, job.lines, job.rows = true, job.lines[:0], 0
		w.started[key] = true
	}
	if d.Full || d.Rows > 0 {
		job.lines = append(job.lines, keptRecord{end: end, data: d.Lines, rows: d.Rows})
		job.rows += d.Rows
	}
	// A writer that falls behind (a slow disk) holds no more than the
	// bound's worth of a pane's lines: the older ones would be compacted
	// away, so the job starts the file over with the newer.
	for w.rows > 0 && len(job.lines) > 1 && job.rows-job.lines[0].rows >= w.rows {
		job.rows -= job.lines[0].rows
		job.lines = job.lines[1:]
		job.full = true
	}
	job.screen = &keptRecord{end: end, data: d.Screen}
	w.ring()
	return true
}

// Keep says which keys are in use: the files of others are removed, and
// exports handed for them are dropped.
func (w *LinesWriter) Keep(live map[string]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.live, w.prune = live, true
		for key := range w.started {
			if !live[key] {
				delete(w.started, key)
			}
		}
		w.ring()
	}
}

// ring wakes the writer; called under mu while open (Close closes wake).
func (w *LinesWriter) ring() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Flush waits up to wait for what is queued now to be written; it reports
// whether it was.
func (w *LinesWriter) Flush(wait time.Duration) bool {
	c := make(chan struct{})
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		select {
		case <-w.done:
			return true
		case <-time.After(wait):
			return false
		}
	}
	w.flushes = append(w.flushes, c)
	w.ring()
	w.mu.Unlock()
	select {
	case <-c:
		return true
	case <-time.After(wait):
		return false
	}
}

// Close writes what is queued and stops, waiting up to wait; it reports
// whether the writer finished.
func (w *LinesWriter) Close(wait time.Duration) bool {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.wake)
	}
	w.mu.Unlock()
	select {
	case <-w.done:
		return true
	case <-time.After(wait):
		return false
	}
}

func (w *LinesWriter) run() {
	defer close(w.done)
	for range w.wake {
		w.drain()
	}
	w.drain()
}

// drain writes everything queued, then prunes if asked.
func (w *LinesWriter) drain() {
	for {
		w.mu.Lock()
		jobs, live, prune := w.pending, w.live, w.prune
		w.pending, w.prune = map[string]*keptJob{}, false
		if len(jobs) == 0 && !prune {
			for _, c := range w.flushes {
				close(c)
			}
			w.flushes = nil
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		for key, job := range jobs {
			if live != nil && !live[key] {
				continue // its pane has closed since
			}
			if err := w.write(key, job, len(live)); err != nil {
				w.log.Warn("pane history not saved", "key", key, "err", err)
				delete(w.files, key)
				w.mu.Lock()
				if w.pending[key] == nil || !w.pending[key].full {
					delete(w.started, key) // the pane's next hand is a full one
				}
				w.mu.Unlock()
			}
		}
		if prune {
			w.removeOthers(live)
		}
	}
}

// write applies one key's job to its files.
func (w *LinesWriter) write(key string, job *keptJob, panes int) error {
	if !w.dirOK {
		if err := os.MkdirAll(w.dir, 0o700); err != nil {
			return err
		}
		if err := protocol.SafeDir(w.dir); err != nil {
			return err
		}
		w.dirOK = true
	}
	base := KeptBase(w.dir, key)
	f := w.files[key]
	var b []byte
	for _, rec := range job.lines {
		b = appendKeptRecord(b, rec.end, rec.data)
	}
	switch {
	case job.full:
		if err := replaceOwn(base+LinesSuffix, b); err != nil {
			return err
		}
		os.Remove(base + KeptSuffix) // an older build's file: its lines are in this one
		f = &keptFile{rows: job.rows, bytes: int64(len(b))}
		w.files[key] = f
	case f == nil:
		return errors.New("lines to append to a file this server did not begin")
	case len(b) > 0:
		// O_APPEND without O_CREATE: the file must be the one begun here.
		fd, err := os.OpenFile(base+LinesSuffix, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, err = fd.Write(b)
		if cerr := fd.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		f.rows += job.rows
		f.bytes += int64(len(b))
	}
	if n := len(job.lines); n > 0 {
		f.end = job.lines[n-1].end
	}
	if maxBytes := w.shareOfDisk(panes); w.rows > 0 && f.rows > 2*w.rows || maxBytes > 0 && f.bytes > 2*maxBytes {
		if err := w.compact(base, f, maxBytes); err != nil {
			return err
		}
	}
	if job.screen != nil {
		s := appendKeptRecord(nil, job.screen.end, job.screen.data)
		if string(s) != string(f.screen) {
			if err := replaceOwn(base+ScreenSuffix, s); err != nil {
				return err
			}
			f.screen = s
		}
	}
	return nil
}

// shareOfDisk is one pane's bytes on disk before its file is compacted
// (0: no bound): its share of the disk bound, and never more than its
// scrollback holds (a restore reads no more than a few times that).
func (w *LinesWriter) shareOfDisk(panes int) int64 {
	share := int64(0)
	if w.diskMax > 0 {
		share = max(w.diskMax/int64(max(panes, 1)), 64<<10)
	}
	if sm := int64(w.scrollMax); sm > 0 && (share == 0 || sm < share) {
		share = sm
	}
	return share
}

// compact rewrites a .lines file with its newest lines within the bounds.
func (w *LinesWriter) compact(base string, f *keptFile, maxBytes int64) error {
	b, _, err := readOwnFile(base+LinesSuffix, 3*linesBound(w.scrollMax)+f.bytes)
	if err != nil {
		return err
	}
	recs, damage := readKeptRecords(b)
	if damage != nil {
		w.log.Warn("pane history damaged; compacted to what could be read", "file", base+LinesSuffix, "err", damage)
	}
	parts := make([]emulator.HistoryPart, len(recs))
	for i, r := range recs {
		parts[i] = emulator.HistoryPart{Data: r.data}
	}
	rows := w.rows
	joined, err := emulator.JoinHistory(parts, rows)
	for err == nil && maxBytes > 0 && int64(len(joined)) > maxBytes {
		_, n := emulator.HistoryShape(joined)
		if n <= 1 {
			break
		}
		rows = int(int64(n) * maxBytes / int64(len(joined)) * 9 / 10)
		joined, err = emulator.JoinHistory([]emulator.HistoryPart{{Data: joined}}, max(rows, 1))
	}
	if err != nil {
		return err
	}
	out := appendKeptRecord(nil, f.end, joined)
	if err := replaceOwn(base+LinesSuffix, out); err != nil {
		return err
	}
	_, f.rows = emulator.HistoryShape(joined)
	f.bytes = int64(len(out))
	return nil
}

// replaceOwn writes data to a new file beside path (created exclusively,
// 0600) and renames it over path: a reader sees the old file or the new
// one whole, a link at path is replaced, not followed. Not synced (see
// LinesWriter).
func replaceOwn(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// removeOthers removes the kept-lines files of keys not in live, and the
// temporary files of writes a crash cut short (no write is under way: this
// goroutine is the only writer).
func (w *LinesWriter) removeOthers(live map[string]bool) {
	for key := range w.files {
		if !live[key] {
			delete(w.files, key)
		}
	}
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return // no folder yet, or none we can read: nothing of ours to remove
	}
	for _, e := range entries {
		name := e.Name()
		key, isFile := keptKeyOf(name)
		stale := strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") && isKeptName(strings.TrimPrefix(name, "."))
		if !stale && (!isFile || !ValidKeptKey(key) || live[key]) {
			continue
		}
		if err := os.Remove(filepath.Join(w.dir, name)); err != nil {
			w.log.Warn("closed pane's history not removed", "file", name, "err", err)
		}
	}
}

// RemoveKept removes every kept-lines file in dir (lines are no longer
// kept: what an earlier server kept goes too); it reports the first error.
func RemoveKept(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var first error
	for _, e := range entries {
		name := e.Name()
		key, ok := keptKeyOf(strings.TrimPrefix(name, "."))
		tmp := strings.HasPrefix(name, ".") && isKeptName(name[1:])
		if !tmp && (!ok || !ValidKeptKey(key)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// keptKeyOf is the key of a kept-lines file's name (ok false for other names).
func keptKeyOf(name string) (key string, ok bool) {
	for _, suffix := range []string{LinesSuffix, ScreenSuffix, KeptSuffix} {
		if key, ok := strings.CutSuffix(name, suffix); ok {
			return key, true
		}
	}
	return "", false
}

// isKeptName says a temporary file's name (less its leading dot) is one of
// a kept-lines file's.
func isKeptName(name string) bool {
	for _, suffix := range []string{LinesSuffix, ScreenSuffix, KeptSuffix} {
		if strings.Contains(name, suffix+".tmp-") {
			return true
		}
	}
	return false
}

// ValidKeptKey accepts the keys this server makes (terminal ids) and any
// plain name like them: a key read from session.json never names a path
// outside the history folder.
func ValidKeptKey(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	for _, c := range []byte(key) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
