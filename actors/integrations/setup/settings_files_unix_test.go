//go:build unix

package setup

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A settings.json that is a link to /dev/zero or a FIFO fails install at
// once with an error saying it is not a regular file: nothing is read into
// memory or waited on. The status of a FIFO marker file says so too.
func TestInstall_SettingsNotARegularFile(t *testing.T) {
	for name, create := range map[string]func(string) error{
		"/dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		t.Run(strings.Trim(name, "/"), func(t *testing.T) {
			home, env := fakeEnv(t, nil)
			path := filepath.Join(home, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := create(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := Install("claude", env); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
					t.Fatalf("install: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("install is stuck on the settings file")
			}
		})
	}

	home, env := fakeEnv(t, nil)
	tg, _ := Lookup("claude")
	marker, err := tg.MarkerFile(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(marker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(marker, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan Status, 1)
	go func() { done <- StatusOf(tg, env) }()
	select {
	case s := <-done:
		if !strings.Contains(s.String(), "not a regular file") {
			t.Fatalf("status of a FIFO marker: %s", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("status is stuck on a FIFO under %s", home)
	}
}
