package server

import (
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"slices"

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
// and starts its goroutine.
func startDismissals(path string, log *slog.Logger, quit <-chan struct{}) *dismissals {
	rec := dismissedRecord{ReleaseNotes: []string{}, ProductAnnouncements: []dismissedAnnouncement{}}
	if path != "" {
		b, err := protocol.ReadRegularFile(path, maxDismissedBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			log.Warn("dismissed release notes and announcements unreadable; starting a new record", "path", path, "err", err)
		default:
			var read dismissedRecord
			if err := protocol.Unmarshal(b, &read); err != nil {
				log.Warn("dismissed release notes and announcements unreadable; starting a new record", "path", path, "err", err)
			} else {
				rec.ReleaseNotes = append(rec.ReleaseNotes, read.ReleaseNotes...)
				rec.ProductAnnouncements = append(rec.ProductAnnouncements, read.ProductAnnouncements...)
			}
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
		if err := protocol.WriteOwnFile(path, append(b, '\n'), 0o600); err != nil {
			return protocol.Errorf(protocol.CodeInternal, "cannot save the dismissal: %v", err)
		}
	}
	*r = next
	return nil
}

func keepLast[T any](s []T) []T {
	if len(s) > maxDismissed {
		return slices.Delete(s, 0, len(s)-maxDismissed)
	}
	return s
}
