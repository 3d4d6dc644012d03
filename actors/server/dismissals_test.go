package server

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// dismissVersion dismisses release notes of version through d and
// returns the answer.
func dismissVersion(t *testing.T, d *dismissals, quit chan struct{}, version string) error {
	t.Helper()
	got := make(chan error, 1)
	d.dismiss(&protocol.ReleaseNotesDismissParams{Version: version}, func(err error) { got <- err }, quit)
	return <-got
}

func asides(t *testing.T, path string) []string {
	t.Helper()
	found, err := filepath.Glob(path + ".corrupt-*")
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// A dismissed.json that cannot be decoded is moved aside, whole, and
// logged at warn; the record starts anew and is written at path.
func TestDismissals_CorruptRecordIsKeptAside(t *testing.T) {
	for name, body := range map[string]string{
		"not json":      `{"release_notes": ["1.0.0"`,
		"a key twice":   `{"release_notes":["1.0.0"],"release_notes":["2.0.0"]}`,
		"wrong shape":   `{"release_notes":"1.0.0"}`,
		"not an object": `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), DismissedFile)
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			var logged bytes.Buffer
			quit := make(chan struct{})
			defer close(quit)
			d := startDismissals(path, slog.New(slog.NewTextHandler(&logged, nil)), quit)
			kept := asides(t, path)
			if len(kept) != 1 {
				t.Fatalf("asides %v", kept)
			}
			if b, _ := os.ReadFile(kept[0]); string(b) != body {
				t.Fatalf("the aside holds %q, not the record", b)
			}
			if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), kept[0]) {
				t.Fatalf("log: %s", logged.String())
			}
			if err := dismissVersion(t, d, quit, "3.0.0"); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"3.0.0"`) || strings.Contains(string(b), "1.0.0") {
				t.Fatalf("the new record: %s", b)
			}
		})
	}
}

// A symlinked dismissed.json is read and written through the link, which
// stays; a corrupt target is moved aside beside itself and the link kept.
func TestDismissals_SymlinkIsWrittenThrough(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir, dots := t.TempDir(), t.TempDir()
	path, target := filepath.Join(dir, DismissedFile), filepath.Join(dots, "dismissed.json")
	if err := os.WriteFile(target, []byte(`{"release_notes":["1.0.0"],"product_announcements":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	quit := make(chan struct{})
	defer close(quit)
	d := startDismissals(path, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), quit)
	if err := dismissVersion(t, d, quit, "2.0.0"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"1.0.0"`) || !strings.Contains(string(b), `"2.0.0"`) {
		t.Fatalf("the target: %s", b)
	}

	if err := os.WriteFile(target, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	d = startDismissals(path, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), quit)
	if kept := asides(t, target); len(kept) != 1 {
		t.Fatalf("the corrupt target not kept aside beside itself: %v", kept)
	}
	if err := dismissVersion(t, d, quit, "4.0.0"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced after the corrupt target: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"4.0.0"`) {
		t.Fatalf("the new target: %s", b)
	}
}
