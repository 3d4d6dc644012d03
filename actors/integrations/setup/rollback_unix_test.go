//go:build unix

package setup

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// An install whose settings file cannot be written (a FIFO, or a folder
// it may not write in) fails naming why, and takes back the hook script
// it wrote: the integration is not listed current; a script an earlier
// install left is given its old contents back.
func TestInstall_FailureTakesBackWhatItWrote(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, settings string){
		"fifo": func(t *testing.T, settings string) {
			if err := syscall.Mkfifo(settings, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"unwritable": func(t *testing.T, settings string) {
			write(t, settings, `{"theme":"dark"}`)
			if err := os.Chmod(filepath.Dir(settings), 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(filepath.Dir(settings), 0o700) })
		},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "unwritable" && os.Geteuid() == 0 {
				t.Skip("root writes in any folder")
			}
			home, env := fakeEnv(t, nil)
			settings := filepath.Join(home, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
				t.Fatal(err)
			}
			tg, _ := Lookup("claude")
			marker, err := tg.MarkerFile(env)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(marker, filepath.Dir(settings)) || marker == settings {
				t.Fatalf("the marker %s is not the script under %s", marker, filepath.Dir(settings))
			}
			os.MkdirAll(filepath.Dir(marker), 0o755)
			spoil(t, settings)
			_, err = Install("claude", env)
			if err == nil || !strings.Contains(err.Error(), settings) || !strings.Contains(err.Error(), "removed "+marker) {
				t.Fatalf("install: %v", err)
			}
			if _, err := os.Lstat(marker); !os.IsNotExist(err) {
				t.Fatalf("the hook script is left: %v", err)
			}
			if st := StatusOf(tg, env).State(); st != protocol.IntegrationNotInstalled {
				t.Fatalf("status after the failed install: %s", st)
			}
		})
	}

	// An older script is put back as it was.
	home, env := fakeEnv(t, nil)
	settings := filepath.Join(home, ".claude", "settings.json")
	tg, _ := Lookup("claude")
	marker, _ := tg.MarkerFile(env)
	write(t, marker, "#!/bin/sh\n# an older herdr script\n")
	if err := syscall.Mkfifo(settings, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Install("claude", env); err == nil || !strings.Contains(err.Error(), "restored "+marker) {
		t.Fatalf("install over an older script: %v", err)
	}
	if b, _ := os.ReadFile(marker); string(b) != "#!/bin/sh\n# an older herdr script\n" {
		t.Fatalf("the older script now holds %q", b)
	}
}
