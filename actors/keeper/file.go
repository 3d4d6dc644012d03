package keeper

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// fileWriter is session.json's writer: an kit.Latest that indents, writes
// and syncs off every actor and skips to the newest when it falls behind.
type fileWriter struct {
	path   string
	latest *kit.Latest
	// keepOriginal says the restore left part of the file out: the first
	// write copies the file aside before it replaces it (writer's goroutine).
	keepOriginal atomic.Bool
	// written counts the files written (the writer's goroutine adds).
	written atomic.Int64
	// versions numbers what is handed, so each write can be reported;
	// notify reports it to the keeper (set before the first hand, read
	// only by the writer's goroutine after it).
	versions versions
	notify   func(gen uint64, err error)
}

func newFileWriter(path string, log *slog.Logger) *fileWriter {
	w := &fileWriter{path: path}
	w.latest = kit.NewLatest(func(compact []byte) {
		gen := w.versions.take(compact)
		report := func(err error) {
			if w.notify != nil {
				w.notify(gen, err)
			}
		}
		if w.keepOriginal.Load() {
			aside, err := copyAside(path)
			if err != nil {
				log.Error("session file not saved: its original could not be kept aside", "path", path, "err", err)
				report(err)
				return // tried again at the next save
			}
			w.keepOriginal.Store(false)
			if aside != "" {
				log.Warn("session file kept aside before the first save: it held what was not restored", "path", path, "aside", aside)
			}
		}
		if err := WriteSessionFile(path, indentSession(compact)); err != nil {
			log.Error("session file not saved", "path", path, "err", err)
			report(err)
			return
		}
		w.written.Add(1)
		report(nil)
	})
	return w
}

// encodeSession is the session file's content, compact (on the keeper's
// Receive; the writer indents it).
func encodeSession(saved *model.Saved) ([]byte, error) { return json.Marshal(saved) }

// indentSession lays out an encoded session file as Herdr does (two
// spaces, a final newline), on the writer's goroutine.
func indentSession(compact []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(compact) * 2)
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return append(compact, '\n') // never: the keeper encoded it
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// MaxSessionFileBytes bounds the session file read at start: thousands
// of panes take a few megabytes; anything larger is not one.
const MaxSessionFileBytes = 64 << 20

// WriteSessionFile writes the session file: atomically, private to its
// owner, in a folder no one else can tamper with; a symlink at the path
// is replaced, never followed (the file is the server's own, and a link
// planted there could point at any file the server may write).
func WriteSessionFile(path string, data []byte) error {
	return protocol.WriteOwnFile(path, data, 0o600)
}

// ReadSessionFile reads the session file. No file is (nil, "", nil). A
// file that cannot be used is moved aside to path.bad-<time>, never
// overwritten or dropped, and reported: the result is then nil with a
// description of what happened. Unusable is corrupt, from a newer release,
// larger than MaxSessionFileBytes, or not a regular file at all: a
// symlink (the server writes a plain file, so a link is not its own; the
// link is moved, its target left alone), a FIFO or a device, which are
// never opened for reading, so none can stall the start.
func ReadSessionFile(path string) (saved *model.Saved, problem string, err error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, "", nil // nothing there to lose
	}
	if err != nil {
		return nil, "", err
	}
	var bad error
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		bad = fmt.Errorf("a symlink (to %s), not a file the server wrote", target)
	case !info.Mode().IsRegular():
		bad = fmt.Errorf("not a regular file (%s)", info.Mode().Type())
	case info.Size() > MaxSessionFileBytes:
		bad = fmt.Errorf("larger than %d bytes", MaxSessionFileBytes)
	default:
		data, err := protocol.ReadRegularFile(path, MaxSessionFileBytes)
		if err != nil {
			return nil, "", err
		}
		if saved, bad = model.Parse(data); bad == nil {
			return saved, "", nil
		}
	}
	aside, err := moveAside(path)
	if err != nil {
		return nil, "", fmt.Errorf("session file unusable (%v) and not moved aside: %w", bad, err)
	}
	return nil, fmt.Sprintf("%v; moved aside to %s", bad, aside), nil
}

// asideName is a free path.bad-<time> name (a -N suffix keeps two asides
// of the same second apart).
func asideName(path string) string {
	base := fmt.Sprintf("%s.bad-%s", path, time.Now().UTC().Format("20060102T150405Z"))
	name := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, n)
	}
}

// moveAside renames path to a free aside name and returns it.
func moveAside(path string) (string, error) {
	aside := asideName(path)
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	return aside, nil
}

// copyAside copies the session file to a free aside name, the copy
// private to its owner, and returns that name ("" when there is no file
// to keep). Only a regular file is the server's to keep: anything else
// was moved aside when it was read, and one that turned up since (a
// planted link) is not ours to copy.
func copyAside(path string) (string, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !info.Mode().IsRegular() {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	data, err := protocol.ReadRegularFile(path, MaxSessionFileBytes)
	if err != nil {
		return "", err
	}
	aside := asideName(path)
	f, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(aside)
		return "", err
	}
	return aside, nil
}
