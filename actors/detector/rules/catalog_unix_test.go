//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An override named *.toml that is a FIFO or a link to /dev/zero is
// refused at once with a warning, never read into memory or waited on;
// the bundled manifest stays in use.
func TestLoadCatalog_OverrideNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "claude.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "codex.toml")); err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		c        *Catalog
		warnings []Warning
	}
	done := make(chan loaded, 1)
	go func() { c, w := LoadCatalog(dir); done <- loaded{c, w} }()
	var got loaded
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("LoadCatalog is stuck on an override")
	}
	if len(got.warnings) != 2 {
		t.Fatalf("warnings %v, want one per bad override", got.warnings)
	}
	for _, w := range got.warnings {
		if !strings.Contains(w.Error(), "not a regular file") {
			t.Errorf("warning %v", w)
		}
	}
	for _, agent := range []string{"claude", "codex"} {
		if _, ok := got.c.Get(agent); !ok {
			t.Errorf("%s has no manifest left", agent)
		}
	}
}
