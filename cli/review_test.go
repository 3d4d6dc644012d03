package cli

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// At a terminal, worktree diff draws its files as a table (a binary file
// marked, a rename shown old → new), then the diff coloured as git does,
// and a control character in the diff's text drawn harmless.
func TestReview_DrawDiff(t *testing.T) {
	var b strings.Builder
	drawDiff(&b, protocol.WorktreeDiff{Branch: "feature", Base: "main", MergeBase: "0123456789abcdef", Files: []protocol.DiffFile{
		{Path: "a.go", Status: "M", Additions: 2, Deletions: 1},
		{Path: "img.png", Status: "A", Binary: true},
		{Path: "new.go", OldPath: "old.go", Status: "R"},
	}, Diff: "diff --git a/a.go b/a.go\n@@ -1,2 +1,3 @@\n-old\n+new\x1b]52;c;x\x07\n ctx\n", Uncommitted: true})
	out := b.String()
	for _, want := range []string{"feature against main (merge-base 0123456789ab), 3 files", "bin", "old.go → new.go", "uncommitted changes", "\x1b[32m+new\ufffd]52;c;x\ufffd\x1b[m", "\x1b[31m-old\x1b[m", "\x1b[36m@@ -1,2 +1,3 @@\x1b[m"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b]52") {
		t.Errorf("an escape of the diff's text reached the terminal:\n%q", out)
	}
}

// review list draws each thread's comments, a multi-line one cut to its
// first line.
func TestReview_DrawReviews(t *testing.T) {
	var b strings.Builder
	drawReviews(&b, protocol.ReviewList{Threads: []protocol.ReviewThread{{TaskID: "task-4", Branch: "fix", Checkout: "/r/fix", Comments: []protocol.ReviewComment{
		{ID: 1, File: "a.go", Line: 3, Text: "first\nsecond", Status: "sent"},
	}}}})
	out := b.String()
	for _, want := range []string{"task-4", "a.go:3", "first …", "sent"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "second") {
		t.Errorf("the comment's second line was drawn:\n%s", out)
	}
	b.Reset()
	drawReviews(&b, protocol.ReviewList{})
	if !strings.Contains(b.String(), "no review comments") {
		t.Errorf("empty list: %q", b.String())
	}
}
