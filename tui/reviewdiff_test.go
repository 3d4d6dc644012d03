package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeReview is the diff view's host: a server holding one diff and the
// comments it is sent.
type fakeReview struct {
	diff     protocol.WorktreeDiff
	comments []protocol.ReviewComment
	calls    []string
}

func (f *fakeReview) rpc() rpcFunc {
	return func(method string, params, out any) error {
		f.calls = append(f.calls, method)
		var res any
		switch method {
		case "worktree.diff":
			res = f.diff
		case "review.list":
			res = protocol.ReviewList{Threads: []protocol.ReviewThread{{WorkspaceID: "w2", Comments: f.comments}}}
		case "review.comment":
			p := params.(protocol.ReviewCommentParams)
			if p.WorkspaceID != "w2" {
				return protocol.Errorf(protocol.CodeInvalidParams, "subject %+v", p)
			}
			f.comments = append(f.comments, protocol.ReviewComment{ID: len(f.comments) + 1, File: p.File, Line: p.Line, Text: p.Text, Status: "pending"})
			res = protocol.ReviewCommentResult{}
		case "review.send":
			res = protocol.ReviewSent{Agent: "w2:p1", Delivered: true}
		default:
			return protocol.Errorf(protocol.CodeUnknownMethod, "%s", method)
		}
		if out == nil {
			return nil
		}
		b, _ := json.Marshal(res)
		return json.Unmarshal(b, out)
	}
}

// run runs a command and hands its message back to the view, as the
// client's loop does.
func run(t *testing.T, v *diffView, cmd func() any) {
	t.Helper()
	for cmd != nil {
		msg := cmd()
		next, ok := v.update(msg)
		if !ok {
			t.Fatalf("the view did not take %T", msg)
		}
		cmd = nil
		if next != nil {
			cmd = func() any { return next() }
		}
	}
}

const twoHunks = `diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -1,3 +1,3 @@
 package a
-var x = 1
+var x = 2
 // end
@@ -20,2 +20,3 @@ func f() {
 	a()
+	b()
 }
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package gone
-var y = 0
`

// The diff view lays the diff out with its line numbers, goes from hunk
// to hunk (n, p) and file to file (], [), comments on the cursor's line
// (c, typed, Enter) through review.comment and draws the comment under
// the line once read again; a hunk header takes no comment; s sends.
func TestDiffView_HunksCommentSend(t *testing.T) {
	f := &fakeReview{diff: protocol.WorktreeDiff{Branch: "feature", Base: "main", Diff: twoHunks,
		Files: []protocol.DiffFile{{Path: "a.go", Status: "M", Additions: 2, Deletions: 1}, {Path: "gone.go", Status: "D", Deletions: 2}}}}
	v := newDiffView(f)
	run(t, &v, wrap(v.openDiff(protocol.ReviewSubject{WorkspaceID: "w2"})))
	if len(v.rows) == 0 || v.rows[0].kind != "file" || !strings.Contains(v.status, "2 files") {
		t.Fatalf("rows %+v status %q", v.rows, v.status)
	}
	v.key("n")
	if r := v.rows[v.cur]; r.kind != "hunk" || !strings.HasPrefix(r.text, "@@ -1,3") {
		t.Fatalf("n went to %+v", r)
	}
	v.key("n")
	if r := v.rows[v.cur]; r.kind != "hunk" || !strings.HasPrefix(r.text, "@@ -20,2") {
		t.Fatalf("second n went to %+v", r)
	}
	v.key("c")
	if v.commenting {
		t.Fatal("a hunk header took a comment")
	}
	v.key("j")
	v.key("j") // "+	b()", line 21
	if r := v.rows[v.cur]; r.kind != "add" || r.line != 21 || r.file != "a.go" {
		t.Fatalf("cursor on %+v", r)
	}
	v.key("c")
	for _, k := range []string{"c", "a", "l", "l", "space", "g", "x", "backspace"} {
		v.key(k)
	}
	run(t, &v, wrap(v.key("enter")))
	if len(f.comments) != 1 || f.comments[0].File != "a.go" || f.comments[0].Line != 21 || f.comments[0].Text != "call g" {
		t.Fatalf("review.comment got %+v", f.comments)
	}
	found := false
	for i, r := range v.rows {
		if r.kind == "comment" && strings.Contains(r.text, "call g") && v.rows[i-1].line == 21 {
			found = true
		}
	}
	if !found || !strings.Contains(v.status, "1 pending") {
		t.Fatalf("the comment is not under its line: %+v (%q)", v.rows, v.status)
	}
	// A deleted file's lines number its old side.
	v.key("]")
	if r := v.rows[v.cur]; r.kind != "file" || r.file != "gone.go" {
		t.Fatalf("] went to %+v", r)
	}
	v.key("n")
	v.key("j")
	if r := v.rows[v.cur]; r.kind != "del" || r.line != 1 {
		t.Fatalf("a deleted file's first line: %+v", r)
	}
	v.key("p") // its own hunk
	v.key("[") // its own header
	v.key("[")
	if r := v.rows[v.cur]; r.file != "a.go" || r.kind != "file" {
		t.Fatalf("[ went to %+v", r)
	}
	run(t, &v, wrap(v.key("s")))
	if !strings.Contains(strings.Join(f.calls, " "), "review.send") {
		t.Fatalf("calls %v", f.calls)
	}
	// Drawn: the file list, the diff, the status row.
	c := newCanvas(60, 12)
	v.draw(c, protocol.Rect{Width: 60, Height: 12}, newTheme(config.Default(), true))
	if s := c.String(); !strings.Contains(s, "M a.go  +2 -1") || !strings.Contains(s, "feature → main") {
		t.Fatalf("drawn:\n%s", s)
	}
	v.key("q")
	if v.open {
		t.Fatal("q did not close the view")
	}
}

// wrap makes a command of a tea.Cmd for run.
func wrap[C ~func() M, M any](c C) func() any {
	if c == nil {
		return nil
	}
	return func() any { return c() }
}
