//go:build unix

package protocol

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file frame is read only from a private regular file of ours, directly
// in the offered folder, of exactly the length its header gives.
func TestReadGraphicsFrameFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "frames")
	if err := PrepareGraphicsFileDir(dir); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %o", info.Mode().Perm())
	}
	write := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(p, mode)
		return p
	}
	good := write("good", []byte("12345678"), 0o600)
	if b, err := ReadGraphicsFrameFile(dir, good, 8); err != nil || string(b) != "12345678" {
		t.Fatalf("good file: %q %v", b, err)
	}
	outside := filepath.Join(t.TempDir(), "x")
	_ = os.WriteFile(outside, []byte("12345678"), 0o600)
	link := filepath.Join(dir, "link")
	_ = os.Symlink(good, link)
	fifo := filepath.Join(dir, "fifo")
	_ = syscall.Mkfifo(fifo, 0o600)
	for name, c := range map[string]struct {
		dir, path string
		size      int64
	}{
		"wrong length":    {dir, good, 4},
		"outside":         {dir, outside, 8},
		"dot-dot":         {dir, dir + "/../frames/good", 8},
		"a link":          {dir, link, 8},
		"a fifo":          {dir, fifo, 8},
		"world writable":  {dir, write("open", []byte("12345678"), 0o666), 8},
		"missing":         {dir, filepath.Join(dir, "none"), 8},
		"no folder given": {"", good, 8},
	} {
		if _, err := ReadGraphicsFrameFile(c.dir, c.path, c.size); AsError(err).Code != CodeInvalidFrameFile {
			t.Errorf("%s: %v", name, err)
		}
	}
}
