package review

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// git's -z listings: a rename names old then new, a binary file counts
// "-" lines.
func TestParse_NameStatusAndNumstat(t *testing.T) {
	files := parseNameStatus("M\x00a.go\x00R087\x00old.go\x00new.go\x00A\x00img.png\x00D\x00gone.go\x00")
	want := []protocol.DiffFile{{Status: "M", Path: "a.go"}, {Status: "R", OldPath: "old.go", Path: "new.go"}, {Status: "A", Path: "img.png"}, {Status: "D", Path: "gone.go"}}
	if len(files) != len(want) {
		t.Fatalf("files %+v", files)
	}
	for i := range want {
		if files[i] != want[i] {
			t.Errorf("file %d: %+v, want %+v", i, files[i], want[i])
		}
	}
	n := parseNumstat("3\t1\ta.go\x001\t1\t\x00old.go\x00new.go\x00-\t-\timg.png\x000\t2\tgone.go\x00")
	if c := n["a.go"]; c.add != 3 || c.del != 1 || c.binary {
		t.Errorf("a.go %+v", c)
	}
	if c := n["new.go"]; c.add != 1 || c.del != 1 {
		t.Errorf("a rename's counts go to its new path: %+v", n)
	}
	if c := n["img.png"]; !c.binary {
		t.Errorf("img.png %+v", c)
	}
}

// A hunk's range is its first line and count (1 when omitted); a count
// of 0 (a side with no lines) holds nothing; a deleted file numbers its
// old side.
func TestParse_Hunks(t *testing.T) {
	diff := "@@ -1,3 +1,4 @@\n x\n@@ -10 +11 @@ f()\n@@ -20,0 +22,2 @@\n@@ -30,2 +33,0 @@\n"
	h := parseHunks(diff, false)
	for line, in := range map[int]bool{1: true, 4: true, 5: false, 11: true, 12: false, 22: true, 23: true, 33: false} {
		if h.holds(line) != in {
			t.Errorf("line %d in the hunks %v: %v", line, h, !in)
		}
	}
	old := parseHunks(diff, true)
	if !old.holds(30) || !old.holds(31) || old.holds(20) {
		t.Errorf("old side %v", old)
	}
}

// The push command is one a shell takes as written: plain words bare,
// anything else single-quoted.
func TestPushCommand_Quoting(t *testing.T) {
	for in, want := range map[string]string{"fix/login-2": "fix/login-2", "a b": "'a b'", "it's": `'it'\''s'`, "$(x)": "'$(x)'", "": "''"} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// The prompt is a header, then each comment as file:line and its text,
// numbered, every line of a text indented under it.
func TestPrompt_OneForAllComments(t *testing.T) {
	th := &Thread{Branch: "fix", TaskID: "task-3"}
	got := prompt(th, []protocol.ReviewComment{{File: "a.go", Line: 4, Text: "first\nsecond"}, {File: "b.go", Line: 9, Text: "why?"}})
	want := "Review of your branch fix (task task-3): please address each comment below, then commit.\n\n1. a.go:4\n   first\n   second\n\n2. b.go:9\n   why?"
	if got != want {
		t.Fatalf("prompt:\n%s\nwant:\n%s", got, want)
	}
}

// What is written is read back: threads in key order (task-2 before
// task-10, tasks before checkouts); a missing file is no threads, a
// damaged one an error.
func TestStore_RoundTrip(t *testing.T) {
	threads := map[string]*Thread{}
	for _, k := range []string{"checkout:/r/x", "task-10", "task-2"} {
		threads[k] = &Thread{Key: k, Checkout: "/r", Comments: []protocol.ReviewComment{{ID: 1, File: "a", Line: 1, Text: "t", Status: "pending"}}, NextID: 2}
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := protocol.WriteOwnFile(path, encode(threads), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, th := range got {
		keys = append(keys, th.Key)
	}
	if strings.Join(keys, " ") != "task-2 task-10 checkout:/r/x" || got[0].Comments[0].Text != "t" || got[0].NextID != 2 {
		t.Fatalf("read back %v %+v", keys, got[0])
	}
	if none, err := Load(filepath.Join(t.TempDir(), "absent.json")); err != nil || none != nil {
		t.Fatalf("a missing file: %v %v", none, err)
	}
	if err := protocol.WriteOwnFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil {
		t.Fatal("a damaged file was read")
	}
	if Path("") != "" || Path("/s/session.json") != "/s/review.json" {
		t.Fatalf("Path: %q", Path("/s/session.json"))
	}
}

// The list of every thread stops before the thread that passes the bound
// (the first is always answered), and says so.
func TestBounded_CutsWholeThreads(t *testing.T) {
	big := strings.Repeat("x", protocol.MaxReviewListBytes/2+1)
	th := func() protocol.ReviewThread {
		return protocol.ReviewThread{Comments: []protocol.ReviewComment{{Text: big}}}
	}
	if got, cut := bounded([]protocol.ReviewThread{th(), th(), th()}); len(got) != 1 || !cut {
		t.Fatalf("%d threads, cut %v", len(got), cut)
	}
	if got, cut := bounded([]protocol.ReviewThread{th()}); len(got) != 1 || cut {
		t.Fatalf("one thread: %d, cut %v", len(got), cut)
	}
}
