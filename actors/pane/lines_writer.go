package pane

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// LinesWriter packs and writes the panes' kept lines on a goroutine of its
// own: panes hand it exports (Hand, from their own goroutines, never
// waiting), the session the set of keys still in use (Keep), whose files
// alone stay. A pane that hands again before the last export was written
// replaces it: only the newest is written. The mutex guards this queue
// alone, no actor's state.
type LinesWriter struct {
	dir string
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]keptExport
	live    map[string]bool // the keys in use; nil until the session says
	prune   bool            // remove the files of other keys
	closed  bool

	wake chan struct{} // capacity 1
	done chan struct{} // closed when the writer has finished
}

// keptExport is one pane's lines waiting to be written.
type keptExport struct {
	data []byte
	at   time.Time
}

func NewLinesWriter(dir string, log *slog.Logger) *LinesWriter {
	w := &LinesWriter{dir: dir, log: log, pending: map[string]keptExport{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.run()
	return w
}

// Hand queues a pane's export; it never blocks.
func (w *LinesWriter) Hand(key string, data []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.pending[key] = keptExport{data: data, at: time.Now()}
		w.ring()
	}
}

// Keep says which keys are in use: the files of others are removed, and
// exports handed for them are dropped.
func (w *LinesWriter) Keep(live map[string]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.live, w.prune = live, true
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
		w.pending, w.prune = map[string]keptExport{}, false
		w.mu.Unlock()
		if len(jobs) == 0 && !prune {
			return
		}
		for key, job := range jobs {
			if live != nil && !live[key] {
				continue // its pane has closed since
			}
			w.write(key, job)
		}
		if prune {
			w.removeOthers(live)
		}
	}
}

func (w *LinesWriter) write(key string, job keptExport) {
	packed, err := EncodeLinesFile(job.data, job.at)
	if err == nil {
		err = protocol.WriteOwnFile(KeptPath(w.dir, key), packed, 0o600)
	}
	if err != nil {
		w.log.Error("pane history not saved", "key", key, "err", err)
	}
}

// removeOthers removes the kept-lines files of keys not in live, and the
// temporary files of writes a crash cut short (no write is under way: this
// goroutine is the only writer).
func (w *LinesWriter) removeOthers(live map[string]bool) {
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return // no folder yet, or none we can read: nothing of ours to remove
	}
	for _, e := range entries {
		name := e.Name()
		key, isFile := strings.CutSuffix(name, KeptSuffix)
		stale := strings.HasPrefix(name, ".") && strings.Contains(name, KeptSuffix+".tmp-")
		if !stale && (!isFile || !ValidKeptKey(key) || live[key]) {
			continue
		}
		if err := os.Remove(filepath.Join(w.dir, name)); err != nil {
			w.log.Warn("closed pane's history not removed", "file", name, "err", err)
		}
	}
}

// KeptSuffix ends every kept-lines file's name.
const KeptSuffix = ".gz"

// KeptPath is the file of key's lines in dir.
func KeptPath(dir, key string) string { return filepath.Join(dir, key+KeptSuffix) }

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
