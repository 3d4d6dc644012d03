package review

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fakeAgent stands in for Claude Code: it shows Claude's screens, writes
// every line it reads to DIR/prompt, and on a line WORK works (Claude's
// working screen) until DIR/release exists, then shows its idle screen.
const fakeAgent = `#!/bin/sh
stty -echo
dir='@DIR@'
printf '\033[2J\033[HDone. Ready for the next task.\n'
while IFS= read -r line; do
  echo "$line" >> "$dir/prompt"
  case "$line" in
  WORK)
    printf '\033[2J\033[H* Thinking… (esc to interrupt)\n'
    until [ -e "$dir/release" ]; do sleep 0.1; done
    printf '\033[2J\033[HDone. All tests pass.\n' ;;
  esac
done
`

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@e"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func statuses(t *testing.T, s *Server, ws string) []string {
	t.Helper()
	got := OK[protocol.ReviewList](t, s.Call("review.list", map[string]any{"workspace_id": ws}), "review_list")
	var out []string
	for _, th := range got.Threads {
		for _, c := range th.Comments {
			out = append(out, c.File+":"+c.Status)
		}
	}
	return out
}

// reviewHome is a home whose panes find the fake agent as claude, whose
// server's git has an identity to merge with, and a git repository.
func reviewHome(t *testing.T) (h *Home, dir, repo string) {
	t.Helper()
	h = NewHome(t)
	dir, bin, repo := filepath.Join(h.Dir, "d"), filepath.Join(h.Dir, "bin"), filepath.Join(h.Dir, "repo")
	for _, d := range []string{dir, bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(strings.ReplaceAll(fakeAgent, "@DIR@", dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.Env {
		if strings.HasPrefix(kv, "PATH=") {
			h.Env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	// The merge commit is the server's git's: it needs an identity.
	h.Env = append(h.Env, "GIT_AUTHOR_NAME=r", "GIT_AUTHOR_EMAIL=r@e", "GIT_COMMITTER_NAME=r", "GIT_COMMITTER_EMAIL=r@e")
	GitRepo(t, repo)
	return h, dir, repo
}

// The whole review of a worktree workspace: its diff against the main
// checkout's branch (a binary file named, not dumped), comments refused
// off the diff and kept on it, sent to the agent as one prompt (typed at
// once into an agent at rest; queued while it works and typed when its
// turn ends), and accepted with a merge — after a dirty base and a
// conflicting base were each refused with nothing changed.
func TestE2E_Review_DiffCommentSendAcceptMerge(t *testing.T) {
	h, dir, repo := reviewHome(t)
	write(t, filepath.Join(repo, "a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n")
	write(t, filepath.Join(repo, "c.txt"), "base\n")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-qm", "base files")
	s := h.Start(t, "e2e")

	created := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "feature"}), "worktree_created")
	ws, pane, co := created.Workspace.WorkspaceID, created.RootPane.PaneID, created.Worktree.Path
	write(t, filepath.Join(co, "a.txt"), "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n")
	write(t, filepath.Join(co, "b.txt"), "one\ntwo\nthree\n")
	write(t, filepath.Join(co, "blob.bin"), "\x00\x01\x02binary\x00")
	git(t, co, "add", ".")
	git(t, co, "commit", "-qm", "feature work")
	head := git(t, co, "rev-parse", "HEAD")

	// The diff: three files, the binary one named only.
	d := OK[protocol.WorktreeDiff](t, s.Call("worktree.diff", map[string]any{"workspace_id": ws}), "worktree_diff")
	if d.Branch != "feature" || d.Base != "main" || d.Head != head || d.Truncated || d.Uncommitted {
		t.Fatalf("diff of %s against %s, head %s (want %s), truncated %v, uncommitted %v", d.Branch, d.Base, d.Head, head, d.Truncated, d.Uncommitted)
	}
	files := map[string]protocol.DiffFile{}
	for _, f := range d.Files {
		files[f.Path] = f
	}
	if f := files["a.txt"]; len(d.Files) != 3 || f.Status != "M" || f.Additions != 1 || f.Deletions != 1 {
		t.Fatalf("files %+v", d.Files)
	}
	if f := files["b.txt"]; f.Status != "A" || f.Additions != 3 {
		t.Fatalf("b.txt: %+v", f)
	}
	if f := files["blob.bin"]; !f.Binary || f.Status != "A" {
		t.Fatalf("blob.bin: %+v", f)
	}
	if !strings.Contains(d.Diff, "+five") || !strings.Contains(d.Diff, "Binary files") || strings.Contains(d.Diff, "binary\x00") {
		t.Fatalf("diff text:\n%s", d.Diff)
	}

	// Comments off the diff are refused; nothing is kept.
	Fail(t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "c.txt", "line": 1, "text": "x"}), protocol.CodeNotInDiff)
	Fail(t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "a.txt", "line": 12, "text": "x"}), protocol.CodeNotInDiff)
	Fail(t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "a.txt", "line": 5, "text": strings.Repeat("x", protocol.MaxReviewCommentText+1)}), protocol.CodeInvalidParams)
	if got := statuses(t, s, ws); len(got) != 0 {
		t.Fatalf("refused comments were kept: %v", got)
	}

	// The agent, at rest in the worktree's pane.
	s.Run(t, pane, "claude")
	WaitFor(t, "the agent recognised", func() bool {
		r := s.Call("agent.get", map[string]any{"target": pane})
		return r.Error == nil
	})
	// By the CLI: the table's verbs; a pipe gets the answer line.
	out, errOut, code := s.CLI("review", "comment", "--workspace", ws, "--line", "5", "a.txt", "use", "a", "word", "for", "every", "line")
	if code != 0 || !strings.Contains(out, `"type":"review_comment"`) {
		t.Fatalf("herdr review comment: %d %s %s", code, out, errOut)
	}
	if out, _, code := s.CLI("worktree", "diff", "--workspace", ws); code != 0 || !strings.Contains(out, `"type":"worktree_diff"`) || !strings.Contains(out, "+five") {
		t.Fatalf("herdr worktree diff: %d %s", code, out)
	}
	OK[protocol.ReviewCommentResult](t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "b.txt", "line": 2, "text": "two is spelled 2 elsewhere"}), "review_comment")
	sent := OK[protocol.ReviewSent](t, s.Call("review.send", map[string]any{"workspace_id": ws}), "review_sent")
	if !sent.Delivered || sent.Agent != pane {
		t.Fatalf("send: %+v", sent)
	}
	WaitFor(t, "the agent to read the prompt", func() bool {
		p := read(filepath.Join(dir, "prompt"))
		return strings.Contains(p, "a.txt:5") && strings.Contains(p, "use a word for every line") && strings.Contains(p, "b.txt:2")
	})
	if got := strings.Join(statuses(t, s, ws), " "); got != "a.txt:sent b.txt:sent" {
		t.Fatalf("after the send: %s", got)
	}
	Fail(t, s.Call("review.send", map[string]any{"workspace_id": ws}), protocol.CodeNoReviewComments)

	// At work: a send waits for the turn's end.
	OK[protocol.OK](t, s.Call("pane.send_input", map[string]any{"pane_id": pane, "text": "WORK", "keys": []string{"Enter"}}), "ok")
	WaitFor(t, "the agent working", func() bool {
		var got protocol.AgentInfoResult
		r := s.Call("agent.get", map[string]any{"target": pane})
		got = OK[protocol.AgentInfoResult](t, r, "agent_info")
		return got.Agent.AgentStatus == protocol.StatusWorking
	})
	OK[protocol.ReviewCommentResult](t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "b.txt", "line": 1, "text": "and one"}), "review_comment")
	sent = OK[protocol.ReviewSent](t, s.Call("review.send", map[string]any{"workspace_id": ws}), "review_sent")
	if sent.Delivered {
		t.Fatalf("typed into a working agent: %+v", sent)
	}
	if got := strings.Join(statuses(t, s, ws), " "); got != "a.txt:sent b.txt:sent b.txt:queued" {
		t.Fatalf("while it works: %s", got)
	}
	queued := OK[protocol.AgentQueueResult](t, s.Call("agent.queue.list", map[string]any{"target": pane}), "agent_queue")
	if len(queued.Queue.Prompts) != 1 || !strings.Contains(queued.Queue.Prompts[0].Text, "b.txt:1") {
		t.Fatalf("the send is not in the agent's queue: %+v", queued.Queue)
	}
	write(t, filepath.Join(dir, "release"), "")
	WaitFor(t, "the queued comment typed at the turn's end", func() bool {
		return strings.Contains(read(filepath.Join(dir, "prompt")), "b.txt:1")
	})
	WaitFor(t, "the queued comment marked sent", func() bool {
		return strings.Join(statuses(t, s, ws), " ") == "a.txt:sent b.txt:sent b.txt:sent"
	})

	// A dirty base is refused; nothing changes.
	mainHead := git(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "c.txt"), "edited\n")
	msg := Fail(t, s.Call("review.accept", map[string]any{"workspace_id": ws, "merge": true}), protocol.CodeDirtyBase)
	if !strings.Contains(msg, "c.txt") {
		t.Fatalf("dirty base refusal does not name the file: %s", msg)
	}
	if git(t, repo, "rev-parse", "HEAD") != mainHead || read(filepath.Join(repo, "c.txt")) != "edited\n" {
		t.Fatal("the refused merge changed the base")
	}
	git(t, repo, "checkout", "--", "c.txt")

	// A conflicting base: aborted, named, the base as it was.
	write(t, filepath.Join(repo, "a.txt"), "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n10\n11\n12\n")
	git(t, repo, "commit", "-qam", "main changes line 5")
	conflicted := git(t, repo, "rev-parse", "HEAD")
	msg = Fail(t, s.Call("review.accept", map[string]any{"workspace_id": ws, "merge": true}), protocol.CodeMergeConflict)
	if !strings.Contains(msg, "a.txt") {
		t.Fatalf("conflict refusal does not name the file: %s", msg)
	}
	if git(t, repo, "rev-parse", "HEAD") != conflicted || git(t, repo, "status", "--porcelain") != "" {
		t.Fatalf("the aborted merge left the base changed:\n%s", git(t, repo, "status"))
	}
	if len(statuses(t, s, ws)) != 3 {
		t.Fatal("a refused accept dropped the comments")
	}
	git(t, repo, "reset", "-q", "--hard", mainHead)

	// Accepted with a merge: the base has the merge commit.
	acc := OK[protocol.ReviewAccepted](t, s.Call("review.accept", map[string]any{"workspace_id": ws, "merge": true}), "review_accepted")
	if !acc.Merged || acc.Base != "main" || acc.Branch != "feature" {
		t.Fatalf("accept: %+v", acc)
	}
	if got := git(t, repo, "rev-parse", "HEAD"); got != acc.MergeCommit {
		t.Fatalf("main is at %s, the merge commit is %s", got, acc.MergeCommit)
	}
	if parents := git(t, repo, "rev-list", "--parents", "-n1", "HEAD"); parents != acc.MergeCommit+" "+mainHead+" "+head {
		t.Fatalf("merge commit parents %q, want main then feature", parents)
	}
	if len(statuses(t, s, ws)) != 0 {
		t.Fatal("the accepted review kept its comments")
	}
}

// A task in review: its worker's worktree is what is reviewed, whether the
// call names the task or its workspace; a send moves it back to running;
// its comments outlive a server restart; an accept without a merge answers
// the push command (nothing is pushed, the base unchanged) and makes the
// task done, after which it takes no second accept.
func TestE2E_Review_TaskSentBackAndAcceptedForAPullRequest(t *testing.T) {
	h, dir, repo := reviewHome(t)
	s := h.Start(t, "e2e")
	created := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "fix/login"}), "worktree_created")
	ws, pane, co := created.Workspace.WorkspaceID, created.RootPane.PaneID, created.Worktree.Path
	write(t, filepath.Join(co, "login.go"), "package login\n\nfunc Login() {}\n")
	git(t, co, "add", ".")
	git(t, co, "commit", "-qm", "login")
	s.Run(t, pane, "claude")
	WaitFor(t, "the agent recognised", func() bool { return s.Call("agent.get", map[string]any{"target": pane}).Error == nil })

	task := OK[protocol.TaskInfoResult](t, s.Call("task.create", map[string]any{"title": "Fix the login", "cwd": repo}), "task_info").Task.ID
	OK[protocol.TaskInfoResult](t, s.Call("task.claim", map[string]any{"task_id": task, "worker": map[string]any{"workspace_id": ws, "pane_id": pane, "branch": "fix/login", "path": co}}), "task_info")
	OK[protocol.TaskInfoResult](t, s.Call("task.attach", map[string]any{"task_id": task, "target": pane}), "task_info")
	for _, st := range []string{"running", "review"} {
		OK[protocol.TaskInfoResult](t, s.Call("task.report", map[string]any{"task_id": task, "status": st}), "task_info")
	}
	taskStatus := func() string {
		return OK[protocol.TaskInfoResult](t, s.Call("task.get", map[string]any{"task_id": task}), "task_info").Task.Status
	}

	// Named by its workspace, the thread is the task's.
	got := OK[protocol.ReviewCommentResult](t, s.Call("review.comment", map[string]any{"workspace_id": ws, "file": "login.go", "line": 3, "text": "check the password"}), "review_comment")
	if got.Thread.TaskID != task || got.Thread.Branch != "fix/login" {
		t.Fatalf("the comment's thread: %+v", got.Thread)
	}
	sent := OK[protocol.ReviewSent](t, s.Call("review.send", map[string]any{"task_id": task}), "review_sent")
	if !sent.Delivered || sent.TaskStatus != "running" || taskStatus() != "running" {
		t.Fatalf("send: %+v; task %s", sent, taskStatus())
	}
	WaitFor(t, "the agent to read the prompt", func() bool {
		return strings.Contains(read(filepath.Join(dir, "prompt")), "login.go:3")
	})

	// Kept across a restart.
	OK[protocol.TaskInfoResult](t, s.Call("task.report", map[string]any{"task_id": task, "status": "review"}), "task_info")
	OK[protocol.ReviewCommentResult](t, s.Call("review.comment", map[string]any{"task_id": task, "file": "login.go", "line": 1, "text": "name the package auth"}), "review_comment")
	s.Stop()
	s = h.Start(t, "e2e")
	list := OK[protocol.ReviewList](t, s.Call("review.list", map[string]any{"task_id": task}), "review_list")
	if len(list.Threads) != 1 || len(list.Threads[0].Comments) != 2 || list.Threads[0].Comments[0].Status != "sent" || list.Threads[0].Comments[1].Status != "pending" {
		t.Fatalf("after a restart: %+v", list)
	}

	// For a pull request: the push command, nothing pushed or merged.
	mainHead := git(t, repo, "rev-parse", "HEAD")
	acc := OK[protocol.ReviewAccepted](t, s.Call("review.accept", map[string]any{"task_id": task}), "review_accepted")
	if acc.Merged || !strings.Contains(acc.PushCommand, "push -u origin fix/login") || acc.TaskStatus != "done" || taskStatus() != "done" {
		t.Fatalf("accept: %+v", acc)
	}
	if git(t, repo, "rev-parse", "HEAD") != mainHead {
		t.Fatal("an accept without merge changed the base")
	}
	Fail(t, s.Call("review.accept", map[string]any{"task_id": task, "merge": true}), protocol.CodeInvalidTaskTransition)
	if git(t, repo, "rev-parse", "HEAD") != mainHead {
		t.Fatal("a refused accept merged")
	}
	// Bad subjects: both named, neither, a workspace that is no worktree.
	Fail(t, s.Call("worktree.diff", map[string]any{"task_id": task, "workspace_id": ws}), protocol.CodeInvalidParams)
	Fail(t, s.Call("worktree.diff", map[string]any{}), protocol.CodeInvalidParams)
	plain := s.CreateWorkspace(t, map[string]any{"cwd": repo}).Workspace.WorkspaceID
	Fail(t, s.Call("worktree.diff", map[string]any{"workspace_id": plain}), protocol.CodeNoReviewBranch)
	Fail(t, s.Call("worktree.diff", map[string]any{"workspace_id": ws, "base": "-D"}), protocol.CodeInvalidParams)
}

// A branch past the bounds: its answer holds MaxDiffFiles files and at
// most MaxDiffBytes of diff, cut at a line's end, and says it was cut.
func TestE2E_Review_DiffIsBounded(t *testing.T) {
	h, _, repo := reviewHome(t)
	s := h.Start(t, "e2e")
	created := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"cwd": repo, "branch": "huge"}), "worktree_created")
	co := created.Worktree.Path
	if err := os.MkdirAll(filepath.Join(co, "many"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < protocol.MaxDiffFiles+200; i++ {
		write(t, filepath.Join(co, "many", fmt.Sprintf("f%05d.txt", i)), "x\n")
	}
	write(t, filepath.Join(co, "big.txt"), strings.Repeat("a long line of text to pass the bound\n", 2*protocol.MaxDiffBytes/38))
	git(t, co, "add", ".")
	git(t, co, "commit", "-qm", "huge")
	d := OK[protocol.WorktreeDiff](t, s.Call("worktree.diff", map[string]any{"workspace_id": created.Workspace.WorkspaceID}), "worktree_diff")
	if !d.Truncated || len(d.Files) != protocol.MaxDiffFiles || len(d.Diff) > protocol.MaxDiffBytes || !strings.HasSuffix(d.Diff, "\n") {
		t.Fatalf("truncated %v, %d files, %d bytes of diff", d.Truncated, len(d.Files), len(d.Diff))
	}
}
