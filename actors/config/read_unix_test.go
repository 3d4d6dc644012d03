//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A config path that names a device, a FIFO or a huge file is refused at
// once with a diagnostic and the defaults; a symlink to a real file works.
func TestLoadRefusesWhatIsNotAConfigFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.toml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", maxConfigBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"fifo": fifo, "/dev/zero": zero, "oversized": big} {
		done := make(chan struct{})
		var diags []string
		var status Status
		go func() {
			_, diags, status = Load(path)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("%s: Load hung", name)
		}
		if status != StatusFailed || len(diags) != 1 {
			t.Errorf("%s: status %v, diagnostics %q; want one failure", name, status, diags)
		}
	}
	real := filepath.Join(dir, "real.toml")
	// /bin/sh: a shell that is not installed would add a diagnostic of its own.
	os.WriteFile(real, []byte("[terminal]\ndefault_shell = \"/bin/sh\"\n"), 0o600)
	link := filepath.Join(dir, "link.toml")
	os.Symlink(real, link)
	if cfg, diags, _ := Load(link); len(diags) != 0 || cfg.Terminal.DefaultShell != "/bin/sh" {
		t.Errorf("a symlink to a config file must load: %q %q", cfg.Terminal.DefaultShell, diags)
	}
}
