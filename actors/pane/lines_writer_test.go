package pane

import (
	"fmt"
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

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// keptTerm is a terminal whose pane hands its lines to w under key, the
// way saveLines does.
type keptTerm struct {
	term *emulator.Terminal
	p    *Pane
}

func newKeptTerm(w *LinesWriter, key string) *keptTerm {
	term := emulator.New(30, 5, emulator.Options{})
	return &keptTerm{term: term, p: &Pane{rt: NewRuntime(), term: term, spec: Spec{Keep: &KeepLines{Key: key, Rows: w.Rows(), Hand: w.Hand}}}}
}

// print writes "<prefix> <i>" lines and hands them.
func (k *keptTerm) print(prefix string, from, to int) {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%s %d\r\n", prefix, i)
	}
	k.term.Write([]byte(b.String()))
	k.p.saveLines()
}

// restoredText reads key's files back into a new terminal's text.
func restoredText(t *testing.T, dir, key string, rows int) (string, KeptRead) {
	t.Helper()
	r, err := ReadKept(KeptBase(dir, key), rows, 0)
	if err != nil {
		t.Fatal(err)
	}
	term := emulator.New(30, 5, emulator.Options{})
	if r.Data != nil {
		if err := term.ImportHistory(r.Data, "--"); err != nil {
			t.Fatal(err)
		}
	}
	return term.Read(emulator.ReadOptions{Source: emulator.SourceRecent, Lines: emulator.MaxRecentLines}).Text, r
}

func closeWriter(t *testing.T, w *LinesWriter) {
	t.Helper()
	if !w.Close(10 * time.Second) {
		t.Fatal("writer did not finish")
	}
}

func flush(t *testing.T, w *LinesWriter) {
	t.Helper()
	if !w.Flush(10 * time.Second) {
		t.Fatal("writer did not write its queue")
	}
}

// Hands append to the .lines file (it grows by the new lines alone) and
// replace the screen; read back, every line is there once, in order. A
// new writer (a new server) refuses to append to a file it did not begin:
// the pane hands a full export instead.
func TestLinesWriter_AppendsNewLinesOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	w := NewLinesWriter(dir, 0, 0, 0, quietLog)
	k := newKeptTerm(w, "a")
	k.print("x", 1, 100)
	flush(t, w)
	before := fileSize(t, KeptBase(dir, "a")+LinesSuffix)
	k.print("x", 101, 110)
	flush(t, w)
	after := fileSize(t, KeptBase(dir, "a")+LinesSuffix)
	if grow := after - before; grow <= 0 || grow > 200 {
		t.Fatalf(".lines grew by %d bytes for 10 short lines (from %d): want an append of those lines alone", grow, before)
	}
	closeWriter(t, w)
	w = NewLinesWriter(dir, 0, 0, 0, quietLog)
	k.p.spec.Keep.Hand = w.Hand
	k.print("x", 111, 120)
	closeWriter(t, w)
	text, _ := restoredText(t, dir, "a", 0)
	for i := 1; i <= 120; i++ {
		if n := strings.Count(text, fmt.Sprintf("x %d\n", i)); n != 1 {
			t.Fatalf("line x %d there %d times:\n%s", i, n, text)
		}
	}
	for _, suffix := range []string{LinesSuffix, ScreenSuffix} {
		if info, err := os.Stat(KeptBase(dir, "a") + suffix); err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want mode 0600", suffix, info, err)
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// The bound of rows holds: three times the bound printed leaves at most
// about twice the bound on disk, and the newest bound lines read back.
func TestLinesWriter_BoundHolds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	w := NewLinesWriter(dir, 200, 0, 0, quietLog)
	k := newKeptTerm(w, "a")
	var largest int64
	for i := 0; i < 60; i++ {
		k.print("z", i*10+1, i*10+10)
		flush(t, w)
		largest = max(largest, fileSize(t, KeptBase(dir, "a")+LinesSuffix))
	}
	closeWriter(t, w)
	if limit := int64(2*200*8 + 512); largest > limit {
		t.Fatalf(".lines reached %d bytes with a bound of 200 short lines (limit %d)", largest, limit)
	}
	text, _ := restoredText(t, dir, "a", 200)
	if !strings.Contains(text, "z 596\n") || strings.Contains(text, "z 300\n") {
		t.Fatalf("restored lines are not the newest 200:\n%s", text)
	}
}

// The disk bound holds too: a pane's share is its part of the total.
func TestLinesWriter_DiskBoundHolds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	w := NewLinesWriter(dir, 0, 64<<10, 0, quietLog)
	k := newKeptTerm(w, "a")
	for i := 0; i < 100; i++ {
		k.print(strings.Repeat("w", 20), i*100+1, i*100+100)
		flush(t, w)
	}
	closeWriter(t, w)
	if size := fileSize(t, KeptBase(dir, "a")+LinesSuffix); size > 2*64<<10+8<<10 {
		t.Fatalf(".lines is %d bytes with a disk bound of 64 KiB", size)
	}
	if text, _ := restoredText(t, dir, "a", 0); !strings.Contains(text, " 9999\n") {
		t.Fatalf("the newest lines are not kept:\n%s", text)
	}
}

// A .lines file cut short restores the records before the cut, and says so.
func TestLinesWriter_TruncatedFileRestoresWhatItCan(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	w := NewLinesWriter(dir, 0, 0, 0, quietLog)
	k := newKeptTerm(w, "a")
	k.print("x", 1, 50)
	flush(t, w)
	k.print("x", 51, 100)
	closeWriter(t, w)
	path := KeptBase(dir, "a") + LinesSuffix
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, b[:len(b)-20], 0o600); err != nil {
		t.Fatal(err)
	}
	text, r := restoredText(t, dir, "a", 0)
	if r.Damage == nil {
		t.Fatal("a cut file read without a word")
	}
	if !strings.Contains(text, "x 1\n") || !strings.Contains(text, "x 40\n") {
		t.Fatalf("the records before the cut are not restored:\n%s", text)
	}
}

// The writer removes the files of keys no longer in use and the
// temporary files of cut writes, and leaves anything else alone.
func TestLinesWriter_RemovesClosedPanesFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	w := NewLinesWriter(dir, 0, 0, 0, quietLog)
	w.Keep(map[string]bool{"a": true, "b": true})
	newKeptTerm(w, "a").print("a", 1, 3)
	newKeptTerm(w, "b").print("b", 1, 3)
	newKeptTerm(w, "gone").print("gone", 1, 3)
	closeWriter(t, w)
	if got := keptNames(t, dir); !slices.Equal(got, []string{"a.lines", "a.screen", "b.lines", "b.screen"}) {
		t.Fatalf("files %v", got)
	}
	for _, name := range []string{".b.lines.tmp-123", "notes.txt", "bad key.lines", "b.gz"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o600)
	}
	w = NewLinesWriter(dir, 0, 0, 0, quietLog)
	w.Keep(map[string]bool{"a": true})
	closeWriter(t, w)
	if got := keptNames(t, dir); !slices.Equal(got, []string{"a.lines", "a.screen", "bad key.lines", "notes.txt"}) {
		t.Fatalf("after b closed: %v", got)
	}
	w.Hand("a", emulator.HistoryDelta{Full: true}) // dropped, no panic
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

// A writer that falls behind keeps at most the bound's worth of a pane's
// queued lines, and what it writes then is the newest.
func TestLinesWriter_QueueBoundedWhenBehind(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	// Its goroutine not started: the queue is never taken until drain.
	w := &LinesWriter{dir: dir, log: quietLog, rows: 100, pending: map[string]*keptJob{}, started: map[string]bool{},
		files: map[string]*keptFile{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	term := emulator.New(30, 5, emulator.Options{})
	var mark emulator.HistoryMark
	for i := 0; i < 50; i++ {
		var b strings.Builder
		for j := 1; j <= 10; j++ {
			fmt.Fprintf(&b, "q %d\r\n", i*10+j)
		}
		term.Write([]byte(b.String()))
		d := term.ExportHistorySince(mark, 100, 0)
		mark = d.Mark
		if !w.Hand("a", d) {
			t.Fatal("a hand refused")
		}
	}
	if job := w.pending["a"]; job == nil || job.rows > 2*100 || !job.full {
		t.Fatalf("queued job: %+v, want a full one of at most 200 rows", job)
	}
	w.drain()
	text, _ := restoredText(t, dir, "a", 100)
	if !strings.Contains(text, "q 496\n") || strings.Contains(text, "q 300\n") {
		t.Fatalf("the newest lines are not what was written:\n%s", text)
	}
}
