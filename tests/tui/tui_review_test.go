package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_ReviewDiffView: prefix V on a worktree workspace opens its diff
// against the base in the client; n goes to the hunk, j to its first line,
// c comments on it (typed on the status row, Enter keeps it: the server
// has it on that file and line), q closes the view.
func TestTUI_ReviewDiffView(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "e2e")
	created := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "feature", "focus": true}), "worktree_created")
	co := created.Worktree.Path
	if err := os.WriteFile(filepath.Join(co, "notes.txt"), []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "notes.txt"}, {"commit", "-qm", "notes"}} {
		cmd := exec.Command("git", append([]string{"-C", co, "-c", "user.name=t", "-c", "user.email=t@e"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")

	c.Type(TuiPrefix + "V")
	c.WaitText(t, "review: feature → main")
	c.WaitText(t, "+first line")
	c.Type("n")
	c.Type("j")
	c.Type("c")
	c.WaitText(t, "comment: ")
	c.Type("tighten this")
	c.Type("\r")
	WaitFor(t, "the comment kept on notes.txt:1", func() bool {
		got := OK[protocol.ReviewList](t, s.Call("review.list", map[string]any{"workspace_id": created.Workspace.WorkspaceID}), "review_list")
		return len(got.Threads) == 1 && len(got.Threads[0].Comments) == 1 &&
			got.Threads[0].Comments[0].File == "notes.txt" && got.Threads[0].Comments[0].Line == 1 && got.Threads[0].Comments[0].Text == "tighten this"
	})
	c.WaitText(t, "tighten this") // drawn under its line
	c.Type("q")
	c.WaitScreen(t, "the view closed", func(screen string) bool { return !strings.Contains(screen, "review: feature") })
}
