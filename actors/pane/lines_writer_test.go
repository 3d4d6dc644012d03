package pane

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/emulator"
)

func keptNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// The writer writes the newest export of each key, removes the files of
// keys no longer in use and the temporary files of cut writes, and
// leaves anything else in the folder alone.
func TestLinesWriter_WritesNewestAndRemovesClosedPanesFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	export := func(text string) []byte {
		term := emulator.New(20, 3, emulator.Options{})
		term.Write([]byte(text))
		return term.ExportHistory(0)
	}
	w := NewLinesWriter(dir, log)
	w.Keep(map[string]bool{"a": true, "b": true})
	w.Hand("a", export("old a"))
	w.Hand("a", export("new a"))
	w.Hand("b", export("b"))
	w.Hand("gone", export("a pane closed since"))
	if !w.Close(10 * time.Second) {
		t.Fatal("writer did not finish")
	}
	if got := keptNames(t, dir); !slices.Equal(got, []string{"a.gz", "b.gz"}) {
		t.Fatalf("files %v", got)
	}
	data, _, err := ReadLinesFile(KeptPath(dir, "a"), 0)
	if err != nil {
		t.Fatal(err)
	}
	term := emulator.New(20, 3, emulator.Options{})
	if err := term.ImportHistory(data, ""); err != nil {
		t.Fatal(err)
	}
	if got := term.Read(emulator.ReadOptions{Source: emulator.SourceRecent, Lines: 4}).Text; !strings.HasPrefix(got, "new a") {
		t.Fatalf("a's file holds %q, want the newest export", got)
	}

	for _, name := range []string{".b.gz.tmp-123", "notes.txt", "bad key.gz"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o600)
	}
	w = NewLinesWriter(dir, log)
	w.Keep(map[string]bool{"a": true})
	if !w.Close(10 * time.Second) {
		t.Fatal("writer did not finish")
	}
	if got := keptNames(t, dir); !slices.Equal(got, []string{"a.gz", "bad key.gz", "notes.txt"}) {
		t.Fatalf("after b closed: %v", got)
	}
	w.Hand("a", export("after close")) // dropped, no panic
	w.Keep(nil)
}

func TestValidKeptKey(t *testing.T) {
	for key, want := range map[string]bool{
		"term_18c2f3a9b0c1": true, "A-z_09": true,
		"": false, "../x": false, "a/b": false, "a.b": false, ".": false, "x\x00": false,
		"k" + string(make([]byte, 64)): false,
	} {
		if ValidKeptKey(key) != want {
			t.Errorf("ValidKeptKey(%q) = %v", key, !want)
		}
	}
}
