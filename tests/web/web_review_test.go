package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWebReview_DiffCommentAccept: the page's diff view against a real
// server and a real worktree: the Diff button of a pane in the worktree
// opens it; its files are listed, a binary one named; hunk navigation
// marks a hunk; a click on a line opens a comment box whose comment the
// server keeps (review.list) and the page draws under the line; a comment
// on a hunk's header is not offered (it has no line number); Accept
// with merge merges the branch into main.
func TestWebReview_DiffCommentAccept(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	h.Env = append(h.Env, "GIT_AUTHOR_NAME=r", "GIT_AUTHOR_EMAIL=r@e", "GIT_COMMITTER_NAME=r", "GIT_COMMITTER_EMAIL=r@e")
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "webreview")
	var created protocol.WorktreeCreated
	if e := RawCall(t, s, "worktree.create", map[string]any{"cwd": repo, "branch": "feature"}, &created); e != nil {
		t.Fatalf("worktree.create: %s", e.Message)
	}
	co := created.Worktree.Path
	for name, body := range map[string]string{"a.txt": "one\n<b>two</b>\nthree\n", "logo.bin": "\x00\x01bin"} {
		if err := os.WriteFile(filepath.Join(co, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"add", "."}, {"commit", "-qm", "work"}} {
		if out, err := exec.Command("git", append([]string{"-C", co}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	ctx := Browser(t, exe)
	pane := created.RootPane.PaneID
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#conn[data-state="open"]`)),
		chromedp.WaitVisible(chromedp.CSS(`li.pane[data-pane="`+pane+`"]`)), Tap(`li.pane[data-pane="`+pane+`"]`),
		chromedp.WaitVisible(chromedp.CSS(`#diffbtn`)), chromedp.Click(chromedp.CSS(`#diffbtn`)),
		chromedp.WaitVisible(chromedp.CSS(`#rvdiff .ln.add[data-line="2"]`))); err != nil {
		t.Fatalf("the diff view never showed a.txt's line 2: %v", err)
	}
	files := pageList(t, ctx, `[...document.querySelectorAll("#rvfiles li")].map((l) => l.textContent)`)
	if strings.Join(files, "|") != "Aa.txt+3 −0|Alogo.binbinary" {
		t.Fatalf("files %q", files)
	}
	if title := PageText(t, ctx, `#rvtitle`); !strings.Contains(title, "feature against main") {
		t.Fatalf("title %q", title)
	}
	if n := pageList(t, ctx, `[...document.querySelectorAll("#rvdiff .ln.hunk[data-line]")].map((l) => l.textContent)`); len(n) != 0 {
		t.Fatalf("a hunk header offers a comment: %q", n)
	}
	if text := PageText(t, ctx, `#rvdiff .ln.add[data-line="2"] .tx`); text != "+<b>two</b>" {
		t.Fatalf("line 2 drawn as %q", text)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#rvnext`)), chromedp.WaitVisible(chromedp.CSS(`#rvdiff .ln.hunk.cur`)),
		chromedp.Click(chromedp.CSS(`#rvdiff .ln.add[data-line="2"]`)), chromedp.WaitVisible(chromedp.CSS(`#rvdiff form.cmform textarea`)),
		chromedp.SendKeys(chromedp.CSS(`#rvdiff form.cmform textarea`), "no markup here"),
		chromedp.Click(chromedp.CSS(`#rvdiff form.cmform button`)),
		chromedp.WaitVisible(chromedp.CSS(`#rvdiff .cm[data-status="pending"]`))); err != nil {
		t.Fatalf("commenting from the page: %v", err)
	}
	var list protocol.ReviewList
	if e := RawCall(t, s, "review.list", map[string]any{"workspace_id": created.Workspace.WorkspaceID}, &list); e != nil || len(list.Threads) != 1 ||
		len(list.Threads[0].Comments) != 1 || list.Threads[0].Comments[0].File != "a.txt" || list.Threads[0].Comments[0].Line != 2 || list.Threads[0].Comments[0].Text != "no markup here" {
		t.Fatalf("the server keeps %+v (%v)", list, e)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#rvaccept`)), chromedp.WaitVisible(chromedp.CSS(`#rvnote`))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the page to say it merged", func() bool { return strings.Contains(PageText(t, ctx, `#rvnote`), "merged into main") })
	out, err := exec.Command("git", "-C", repo, "log", "-1", "--format=%s").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "Merge branch 'feature' into main" {
		t.Fatalf("main's last commit: %q %v", out, err)
	}
}
