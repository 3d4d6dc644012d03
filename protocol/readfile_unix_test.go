//go:build unix

package protocol

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Devices, FIFOs, directories and oversized files are refused at once; a
// symlink to a small regular file is read; a missing file says so.
func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o600)
	for name, path := range map[string]string{"fifo": fifo, "/dev/zero": zero, "oversized": big, "directory": dir} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegularFile(path, 100); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: read, want refused", name)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: the read hung", name)
		}
	}
	real := filepath.Join(dir, "real")
	os.WriteFile(real, []byte("hello"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	if b, err := ReadRegularFile(link, 5); err != nil || string(b) != "hello" {
		t.Errorf("symlink to a 5-byte file with max 5: %q, %v", b, err)
	}
	if _, err := ReadRegularFile(filepath.Join(dir, "none"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}
