//go:build unix

package protocol

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// With neither XDG variables nor HOME, the fallbacks under the temporary
// directory are per user, so another user cannot create them first.
func TestPaths_TempFallbackIsPerUser(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	none := envOf(nil)
	if got, want := ConfigDir(none), filepath.Join(os.TempDir(), "herdr-"+uid); got != want {
		t.Errorf("ConfigDir = %q, want %q", got, want)
	}
	if got, want := StateDir(none), filepath.Join(os.TempDir(), "herdr-state-"+uid); got != want {
		t.Errorf("StateDir = %q, want %q", got, want)
	}
}

// A log path that is a symlink is refused, not followed; a log directory
// another user could write to is refused.
func TestOpenPrivateLog(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	logDir := filepath.Join(dir, "state")
	os.Mkdir(logDir, 0o700)
	link := filepath.Join(logDir, "herdr-server.log")
	os.Symlink(victim, link)
	if f, err := OpenPrivateLog(link); err == nil {
		f.Close()
		t.Fatal("a symlinked log must be refused")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Fatalf("the symlink's target was touched: %q", data)
	}
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	if f, err := OpenPrivateLog(filepath.Join(open, "x.log")); err == nil {
		f.Close()
		t.Fatal("a log in a world-writable directory must be refused")
	}
	f, err := OpenPrivateLog(filepath.Join(dir, "new", "x.log"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if info, _ := os.Stat(filepath.Join(dir, "new", "x.log")); info.Mode().Perm() != 0o600 {
		t.Errorf("log mode %04o, want 0600", info.Mode().Perm())
	}
}
