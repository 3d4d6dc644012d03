package protocol

import (
	"os"
	"sync"
)

// MaxLogBytes is the size at which a log file is rotated.
const MaxLogBytes = 5 << 20

// LogFile is an append-only log that rotates: a write that would take it
// past its limit first renames it to <path>.1 (replacing the previous one)
// and starts a new file. Writes come from any goroutine.
type LogFile struct {
	mu   sync.Mutex
	path string
	max  int64
	f    *os.File
	size int64
}

// OpenLogFile opens (creating it private, see OpenPrivateLog) a log that
// rotates at max bytes.
func OpenLogFile(path string, max int64) (*LogFile, error) {
	f, err := OpenPrivateLog(path)
	if err != nil {
		return nil, err
	}
	l := &LogFile{path: path, max: max, f: f}
	if fi, err := f.Stat(); err == nil {
		l.size = fi.Size()
	}
	return l, nil
}

// Write implements io.Writer.
func (l *LogFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.size > 0 && l.size+int64(len(p)) > l.max {
		l.rotate()
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

// rotate moves the full file aside. When that fails (another process holds
// it open on Windows) the same file goes on, and rotation is tried again
// after another max bytes.
func (l *LogFile) rotate() {
	l.size = 0
	if err := l.f.Close(); err != nil {
		return
	}
	renamed := os.Rename(l.path, l.path+".1") == nil
	f, err := OpenPrivateLog(l.path)
	if err != nil {
		// Keep logging somewhere: the old file, under its new name or not.
		name := l.path
		if renamed {
			name = l.path + ".1"
		}
		if f, err = os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0); err != nil {
			f, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		}
	}
	l.f = f
	if fi, err := f.Stat(); err == nil {
		l.size = fi.Size()
	}
}

// Close closes the file.
func (l *LogFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
