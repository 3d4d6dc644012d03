package dispatch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The agent loop of issue 49 end to end, in one scenario: three tasks
// dispatched (max_running = 3) into worktrees of their own; one worker
// blocks on a numbered permission prompt and is answered from the inbox;
// one is reviewed (its diff, two comments sent back as one prompt, the
// fake agent's fix, review again) and accepted with a merge into main;
// the third just finishes. With HERDR_LOOP_CAST it is recorded
// (docs/agent-loop.cast).
func TestLoop_WholeScenario(t *testing.T) {
	h, dir, repo := dispatcherHomeWith(t, "dispatcher = true\nmax_running = 3\nagent = \"claude {id} {title}\"\n")
	// The merge commit is the server's git's: it needs an identity.
	h.Env = append(h.Env, "GIT_AUTHOR_NAME=r", "GIT_AUTHOR_EMAIL=r@e", "GIT_COMMITTER_NAME=r", "GIT_COMMITTER_EMAIL=r@e")
	s := h.Start(t, "e2e")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	gitOut := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	stopCast, beat := recordLoop(t, s, repo)
	defer stopCast()

	write("mode-task-1", "block")
	write("mode-task-2", "review")
	t1 := taskCreate(t, s, map[string]any{"title": "Clean the build", "cwd": repo})
	t2 := taskCreate(t, s, map[string]any{"title": "Add retry policy", "cwd": repo})
	t3 := taskCreate(t, s, map[string]any{"title": "Document the flags", "cwd": repo})
	beat()

	// Blocked: in the inbox with its question and the prompt's choices.
	waitLong(t, "task-1 blocked", func() bool { return taskGet(t, s, t1).Status == "blocked" })
	w1 := taskGet(t, s, t1).Worker
	var item protocol.InboxItem
	waitLong(t, "task-1's agent in the inbox", func() bool {
		l := OK[protocol.InboxList](t, s.Call("inbox.list", nil), "inbox_list")
		for _, it := range l.Items {
			if it.PaneID == w1.PaneID {
				item = it
				return true
			}
		}
		return false
	})
	if item.Agent != "claude" || !strings.Contains(item.Question, "rm -rf build") || len(item.Choices) != 2 ||
		item.Choices[0] != (protocol.InboxChoice{Key: "1", Label: "Yes"}) || item.Choices[1].Label != "No" {
		t.Fatalf("inbox item: %+v", item)
	}
	// All three at work at once: max_running = 3.
	for _, id := range []string{t2, t3} {
		waitLong(t, id+" at work", func() bool {
			b, _ := os.ReadFile(filepath.Join(dir, "log"))
			return strings.Contains(string(b), "start "+id+"\n")
		})
	}
	beat()
	ans := OK[protocol.InboxAnswered](t, s.Call("inbox.answer", map[string]any{"pane_id": w1.PaneID, "choice": "1", "question_id": item.QuestionID}), "inbox_answered")
	if ans.Typed != "1" {
		t.Fatalf("answered: %+v", ans)
	}
	waitLong(t, "task-1's agent read its answer", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "answer-"+t1))
		return string(b) == "1\n"
	})
	// Answered once: a second answer finds the agent at work.
	waitLong(t, "task-1's agent at work again", func() bool {
		r := s.Call("agent.get", map[string]any{"target": w1.PaneID})
		var a protocol.AgentInfoResult
		return r.Error == nil && protocol.Unmarshal(r.Result, &a) == nil && a.Agent.AgentStatus != protocol.StatusBlocked
	})
	Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": w1.PaneID, "choice": "1"}), protocol.CodeNotBlocked)

	// Task-1 and task-3 finish: review, then done by the reviewer.
	for _, id := range []string{t1, t3} {
		waitLong(t, id+" in review", func() bool { return taskGet(t, s, id).Status == "review" })
		beat()
		OK[struct{}](t, s.Call("task.report", map[string]any{"task_id": id, "status": "done", "message": "looks good"}), "task_info")
	}
	k1 := strings.Join(taskGet(t, s, t1).kinds(), " ")
	if b := strings.Index(k1, "status:blocked"); b < 0 || !strings.Contains(k1[b:], "status:running") || !strings.Contains(k1[b:], "status:review") {
		t.Errorf("task-1 was not blocked, then running and in review after its answer: %v", k1)
	}

	// Task-2 in review: its diff is the fake's commit.
	waitLong(t, "task-2 in review", func() bool { return taskGet(t, s, t2).Status == "review" })
	w2 := taskGet(t, s, t2).Worker
	d := OK[protocol.WorktreeDiff](t, s.Call("worktree.diff", map[string]any{"task_id": t2}), "worktree_diff")
	work := "work-" + t2 + ".txt"
	if d.Base != "main" || d.Branch != w2.Branch || len(d.Files) != 1 || d.Files[0].Path != work || d.Files[0].Status != "A" || !strings.Contains(d.Diff, "+"+t2) {
		t.Fatalf("diff of task-2: %+v", d)
	}
	firstHead := d.Head
	beat()
	// A comment off the diff is refused, and kept nowhere.
	Fail(t, s.Call("review.comment", map[string]any{"task_id": t2, "file": "README.md", "line": 1, "text": "x"}), protocol.CodeNotInDiff)
	// Two comments, one of them by the CLI, sent back as one prompt.
	OK[protocol.ReviewCommentResult](t, s.Call("review.comment", map[string]any{"task_id": t2, "file": work, "line": 1, "text": "say what the policy retries"}), "review_comment")
	if out, errOut, code := s.CLI("review", "comment", "--task", t2, "--line", "1", work, "and", "how", "often"); code != 0 || !strings.Contains(out, `"type":"review_comment"`) {
		t.Fatalf("herdr review comment: %d %s %s", code, out, errOut)
	}
	// At rest, the agent gets the prompt at once (at work, at its turn's end).
	waitLong(t, "task-2's agent at rest", func() bool {
		r := s.Call("agent.get", map[string]any{"target": w2.PaneID})
		var a protocol.AgentInfoResult
		return r.Error == nil && protocol.Unmarshal(r.Result, &a) == nil && (a.Agent.AgentStatus == protocol.StatusDone || a.Agent.AgentStatus == protocol.StatusIdle)
	})
	beat()
	sent := OK[protocol.ReviewSent](t, s.Call("review.send", map[string]any{"task_id": t2}), "review_sent")
	if !sent.Delivered || sent.Agent != w2.PaneID || sent.TaskStatus != "running" {
		t.Fatalf("send: %+v", sent)
	}
	waitLong(t, "task-2's agent read both comments", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "prompt-"+t2))
		p := string(b)
		return strings.Contains(p, "Review of your branch "+w2.Branch+" (task "+t2+")") &&
			strings.Contains(p, "1. "+work+":1") && strings.Contains(p, "say what the policy retries") &&
			strings.Contains(p, "2. "+work+":1") && strings.Contains(p, "and how often")
	})
	if st := taskGet(t, s, t2).Status; st != "running" {
		t.Fatalf("task-2 sent back is %s", st)
	}
	// Sent back, it is not accepted until it is in review again.
	base := gitOut("rev-parse", "main")
	Fail(t, s.Call("review.accept", map[string]any{"task_id": t2, "merge": true}), protocol.CodeInvalidTaskTransition)
	if got := gitOut("rev-parse", "main"); got != base {
		t.Fatalf("a refused accept moved main from %s to %s", base, got)
	}
	// The fix: another commit, review again.
	beat()
	write("fix-"+t2, "")
	waitLong(t, "task-2 in review again", func() bool { return taskGet(t, s, t2).Status == "review" })
	fixed := OK[protocol.WorktreeDiff](t, s.Call("worktree.diff", map[string]any{"task_id": t2}), "worktree_diff")
	if fixed.Head == firstHead || !strings.Contains(fixed.Diff, "+"+t2+", reviewed") {
		t.Fatalf("the fix is not on the branch: head %s (was %s)\n%s", fixed.Head, firstHead, fixed.Diff)
	}

	// Accepted with a merge: main has the merge commit of main and the branch.
	beat()
	mainHead := gitOut("rev-parse", "main")
	acc := OK[protocol.ReviewAccepted](t, s.Call("review.accept", map[string]any{"task_id": t2, "merge": true}), "review_accepted")
	if !acc.Merged || acc.Base != "main" || acc.Branch != w2.Branch || acc.TaskStatus != "done" {
		t.Fatalf("accept: %+v", acc)
	}
	if parents := gitOut("rev-list", "--parents", "-n1", "main"); parents != acc.MergeCommit+" "+mainHead+" "+fixed.Head {
		t.Fatalf("main's head %q, want the merge commit %s of %s and %s", parents, acc.MergeCommit, mainHead, fixed.Head)
	}
	if got := gitOut("show", "main:"+work); got != t2+"\n"+t2+", reviewed" {
		t.Fatalf("%s on main: %q", work, got)
	}
	if l := OK[protocol.ReviewList](t, s.Call("review.list", map[string]any{"task_id": t2}), "review_list"); len(l.Threads) != 0 {
		t.Fatalf("the accepted review kept its comments: %+v", l)
	}

	// The board: all three done, each with its history.
	for _, id := range []string{t1, t2, t3} {
		got := taskGet(t, s, id)
		if got.Status != "done" || got.Attempts != 1 || count(got.kinds(), "dispatched") != 1 {
			t.Errorf("%s: %s, %d attempts, %v", id, got.Status, got.Attempts, got.kinds())
		}
	}
	if k2 := taskGet(t, s, t2).kinds(); count(k2, "status:review") != 2 || count(k2, "status:running") != 1 {
		t.Errorf("task-2 was not in review twice: %v", k2)
	}
	if l := OK[protocol.InboxList](t, s.Call("inbox.list", nil), "inbox_list"); len(l.Items) != 0 {
		t.Errorf("the inbox at the end: %+v", l)
	}
}

// recordLoop records, when HERDR_LOOP_CAST names a file, a pane showing
// the board, the inbox and the review comments, drawn three times a
// second while the scenario runs: docs/agent-loop.cast; beat holds each step a moment on
// screen for a person to see. Off, neither does anything.
func recordLoop(t *testing.T, s *Server, cwd string) (stop, beat func()) {
	cast := os.Getenv("HERDR_LOOP_CAST")
	if cast == "" {
		return func() {}, func() {}
	}
	cast, _ = filepath.Abs(cast)
	ws := s.CreateWorkspace(t, map[string]any{"cwd": cwd, "label": "loop"})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)
	s.Run(t, pane, "while :; do printf '\\033[H\\033[2J'; herdr task board; printf '\\n$ herdr inbox list\\n'; herdr inbox list; printf '\\n$ herdr review list\\n'; herdr review list; sleep 0.3; done")
	OK[struct{}](t, s.Call("pane.record.start", map[string]any{"pane_id": pane, "path": cast}), "pane_record_started")
	beat = func() { time.Sleep(1500 * time.Millisecond) } // for the eye only
	beat()
	return func() {
		beat() // the last board, all done
		s.Call("pane.record.stop", map[string]any{"pane_id": pane})
	}, beat
}
