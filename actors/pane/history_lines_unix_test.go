//go:build unix

package pane

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A FIFO is refused without being opened: the read would wait for a writer.
func TestLinesFile_FIFORefusedAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo.gz")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := ReadLinesFile(path, 0); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the read waited on the FIFO")
	}
}
