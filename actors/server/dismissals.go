package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// The release notes and product announcements a client dismissed
// (release_notes.dismiss, product_announcement.dismiss), kept in
// dismissed.json beside session.json so that no client shows them again,
// whichever client asks and across restarts. As in Herdr, release notes
// are known by version, an announcement by its id within its version.
// One goroutine owns the record and writes it in the order asked, so a
// connection's Receive never waits for the disk and two dismissals never
// write over each other.

// DismissedFile is the record's name beside the session file.
const DismissedFile = "dismissed.json"

// maxDismissed bounds each list: past it the oldest entries are dropped.
const maxDismissed = 256

// maxDismissedBytes bounds the file read at start.
const maxDismissedBytes = 64 << 10

// dismissedRecord is the file's content.
type dismissedRecord struct {
	ReleaseNotes         []string                `json:"release_notes"`
	ProductAnnouncements []dismissedAnnouncement `json:"product_announcements"`
}

type dismissedAnnouncement struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

type dismissal struct {
	params protocol.Params
	done   func(error)
}

// dismissals serves the gateway's Dismiss until quit is closed.
type dismissals struct {
	asks chan dismissal
}

// startDismissals reads the record at path ("" keeps it in memory only)
// and starts its goroutine. A record that cannot be read or decoded is
// moved aside (path.corrupt-<time>, beside the file a symlink at path
// leads to) and logged at warn before a new one is started; one that
// cannot be moved aside is left alone, and the record kept in memory only.
func startDismissals(path string, log *slog.Logger, quit <-chan struct{}) *dismissals {
	rec := dismissedRecord{ReleaseNotes: []string{}, ProductAnnouncements: []dismissedAnnouncement{}}
	if path != "" {
		b, err := protocol.ReadRegularFile(path, maxDismissedBytes)
		var read dismissedRecord
		if err == nil {
			err = protocol.Unmarshal(b, &read)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			if aside, merr := moveDismissedAside(path); merr != nil {
				log.Warn("dismissed release notes and announcements unreadable, and not moved aside: kept in memory only", "path", path, "err", err, "move_err", merr)
				path = ""
			} else {
				log.Warn("dismissed release notes and announcements unreadable: moved aside, starting a new record", "path", path, "aside", aside, "err", err)
			}
		default:
			rec.ReleaseNotes = append(rec.ReleaseNotes, read.ReleaseNotes...)
			rec.ProductAnnouncements = append(rec.ProductAnnouncements, read.ProductAnnouncements...)
		}
	}
	d := &dismissals{asks: make(chan dismissal)}
	go func() {
		for {
			select {
			case a := <-d.asks:
				a.done(rec.add(a.params, path))
			case <-quit:
				return
			}
		}
	}()
	return d
}

// dismiss is gateway.Options.Dismiss: done is called once, from the
// record's goroutine (or at once when the server is stopping).
func (d *dismissals) dismiss(p protocol.Params, done func(error), quit <-chan struct{}) {
	go func() {
		select {
		case d.asks <- dismissal{params: p, done: done}:
		case <-quit:
			done(protocol.Errorf(protocol.CodeServerUnavailable, "the server is stopping"))
		}
	}()
}

// add records a dismissal and writes the record when it changed; a
// failed write leaves the record as it was.
func (r *dismissedRecord) add(p protocol.Params, path string) error {
	next := dismissedRecord{ReleaseNotes: slices.Clone(r.ReleaseNotes), ProductAnnouncements: slices.Clone(r.ProductAnnouncements)}
	switch p := p.(type) {
	case *protocol.ReleaseNotesDismissParams:
		if slices.Contains(r.ReleaseNotes, p.Version) {
			return nil
		}
		next.ReleaseNotes = keepLast(append(next.ReleaseNotes, p.Version))
	case *protocol.ProductAnnouncementDismissParams:
		a := dismissedAnnouncement{ID: p.ID, Version: p.Version}
		if slices.Contains(r.ProductAnnouncements, a) {
			return nil
		}
		next.ProductAnnouncements = keepLast(append(next.ProductAnnouncements, a))
	default:
		return protocol.Errorf(protocol.CodeInternal, "not a dismissal: %T", p)
	}
	if path != "" {
		b, _ := json.MarshalIndent(next, "", "  ")
		if err := writeDismissed(path, append(b, '\n')); err != nil {
			return protocol.Errorf(protocol.CodeInternal, "cannot save the dismissal: %v", err)
		}
	}
	*r = next
	return nil
}

// writeDismissed replaces the record atomically in its folder, which must
// be safe (herdr's own: a link there is the user's), and through a
// symlink at path, which stays (a dotfiles checkout).
func writeDismissed(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := protocol.SafeDir(dir); err != nil {
		return err
	}
	return protocol.WriteFileAtomic(path, data, 0o600)
}

// moveDismissedAside renames the record (the file a symlink at path leads
// to, so the link stays) to a free path.corrupt-<time> name.
func moveDismissedAside(path string) (string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	base := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405Z")
	aside := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(aside); errors.Is(err, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s-%d", base, n)
	}
	return aside, os.Rename(path, aside)
}

func keepLast[T any](s []T) []T {
	if len(s) > maxDismissed {
		return slices.Delete(s, 0, len(s)-maxDismissed)
	}
	return s
}
