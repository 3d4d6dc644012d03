package pane

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/emulator"
)

func linesExport(t *testing.T) []byte {
	t.Helper()
	term := emulator.New(40, 5, emulator.Options{})
	term.Write([]byte("first\r\nsecond\r\n\x1b[33mthird\x1b[0m"))
	return term.ExportHistory(0)
}

func TestLinesFile_RoundTrip(t *testing.T) {
	data := linesExport(t)
	at := time.Date(2026, 12, 4, 9, 31, 0, 0, time.UTC)
	packed, err := EncodeLinesFile(data, at)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "k.gz")
	if err := os.WriteFile(path, packed, 0o600); err != nil {
		t.Fatal(err)
	}
	got, savedAt, err := ReadLinesFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) || !savedAt.Equal(at) {
		t.Fatalf("read back %d bytes saved at %v, want %d bytes at %v", len(got), savedAt, len(data), at)
	}
	term := emulator.New(40, 5, emulator.Options{})
	if err := term.ImportHistory(got, restoredMarker(savedAt)); err != nil {
		t.Fatal(err)
	}
	text := term.Read(emulator.ReadOptions{Source: emulator.SourceRecent, Lines: 10}).Text
	want := "first\nsecond\nthird\n── history restored from " + at.Local().Format("2006-01-02 15:04") + " ──"
	if !strings.HasPrefix(text, want) {
		t.Fatalf("got %q, want it to start with %q", text, want)
	}
}

func TestLinesFile_RefusesWhatIsNotAnIntactBoundedRegularFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.gz")
	packed, _ := EncodeLinesFile(linesExport(t), time.Now())
	os.WriteFile(good, packed, 0o600)
	bomb := func() []byte { // 4 MiB of zeros unpacked, a few kB packed
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(make([]byte, 4<<20))
		zw.Close()
		return b.Bytes()
	}()
	cases := map[string]func(path string){
		"not gzip":  func(p string) { os.WriteFile(p, []byte("plain text"), 0o600) },
		"truncated": func(p string) { os.WriteFile(p, packed[:len(packed)/2], 0o600) },
		"unpacks beyond the bound": func(p string) {
			os.WriteFile(p, bomb, 0o600)
		},
		"packed beyond the bound": func(p string) { os.WriteFile(p, make([]byte, 2<<20), 0o600) },
		"symlink":                 func(p string) { os.Symlink(good, p) },
		"directory":               func(p string) { os.Mkdir(p, 0o700) },
	}
	for name, plant := range cases {
		if name == "symlink" && runtime.GOOS == "windows" {
			continue
		}
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".gz")
		plant(path)
		// A 100 kB scrollback bounds a file at 2×100 kB + 1 MiB.
		if data, _, err := ReadLinesFile(path, 100_000); err == nil {
			t.Errorf("%s: read %d bytes, want an error", name, len(data))
		}
	}
	if _, _, err := ReadLinesFile(filepath.Join(dir, "missing.gz"), 0); !os.IsNotExist(err) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}

// A pane hands its lines only when its screen changed since it last did
// (200 idle panes cost nothing at a save), never while it still reads its
// restored lines (which the hand would write over), and at stop only when
// the server stops.
func TestSaveLines_OnlyWhenChanged(t *testing.T) {
	var handed []string
	p := &Pane{rt: NewRuntime(), term: emulator.New(20, 3, emulator.Options{}), spec: Spec{Keep: &KeepLines{Key: "k", Hand: func(key string, d emulator.HistoryDelta) bool {
		if err := emulator.CheckHistory(d.Lines); err != nil {
			t.Fatal(err)
		}
		handed = append(handed, key)
		return true
	}}}}
	p.saveLines()
	p.saveLines()
	if len(handed) != 1 {
		t.Fatalf("an unchanged pane handed its lines %d times, want once", len(handed))
	}
	p.term.Write([]byte("output"))
	p.saveLines()
	if len(handed) != 2 || handed[1] != "k" {
		t.Fatalf("handed %v after output, want twice under k", handed)
	}
	p.term.Write([]byte(" more"))
	p.kept.loading = true
	p.saveLines()
	p.kept.loading = false
	p.linesStopping() // not shutting down: a closed pane keeps nothing
	if len(handed) != 2 {
		t.Fatalf("handed %v while loading or closing", handed)
	}
}

// An older build's single .gz file is read when there is no .lines file,
// and the first save in the new files removes it.
func TestReadKept_OlderBuildsFile(t *testing.T) {
	dir := t.TempDir()
	packed, err := EncodeLinesFile(linesExport(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(KeptPath(dir, "k"), packed, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := ReadKept(KeptBase(dir, "k"), 0, 0)
	if err != nil || r.Data == nil {
		t.Fatalf("older file not read: %v", err)
	}
	term := emulator.New(40, 5, emulator.Options{})
	if err := term.ImportHistory(r.Data, ""); err != nil {
		t.Fatal(err)
	}
	if got := term.Read(emulator.ReadOptions{Source: emulator.SourceRecent, Lines: 10}).Text; !strings.HasPrefix(got, "first\nsecond\nthird") {
		t.Fatalf("older file restored as %q", got)
	}
	w := NewLinesWriter(dir, 0, 0, 0, quietLog)
	term.Write([]byte("\r\nnew output"))
	w.Hand("k", term.ExportHistorySince(emulator.HistoryMark{}, 0, 0))
	if !w.Close(10 * time.Second) {
		t.Fatal("writer did not finish")
	}
	if _, err := os.Stat(KeptPath(dir, "k")); !os.IsNotExist(err) {
		t.Fatalf("the older file is still there after a save: %v", err)
	}
}
