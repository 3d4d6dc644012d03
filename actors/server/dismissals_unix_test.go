//go:build unix

package server

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A dismissed.json that is no regular file (a FIFO) is moved aside, never
// read or waited on, and logged; the new record is a file at path.
func TestDismissals_FIFOIsKeptAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), DismissedFile)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	quit := make(chan struct{})
	defer close(quit)
	d := startDismissals(path, slog.New(slog.NewTextHandler(&logged, nil)), quit)
	kept := asides(t, path)
	if len(kept) != 1 || !strings.Contains(logged.String(), "level=WARN") {
		t.Fatalf("asides %v, log %s", kept, logged.String())
	}
	if st, err := os.Lstat(kept[0]); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the aside is not the FIFO: %v", err)
	}
	if err := dismissVersion(t, d, quit, "5.0.0"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("the new record: %v", err)
	}
}
