package dispatch

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fakeWorker stands in for Claude Code as a dispatched worker: it shows
// Claude's screens, reads the task's prompt (to its last line, the one
// saying how to report), does its task's part in the worktree (a commit),
// and reports through the CLI, as the prompt asks. What it does is chosen
// per task by a mode file in DIR: block (asks a question and waits for
// the answer), gate (waits for DIR/gate-<id>), fail-once (its first
// attempt crashes), review (once in review, a review prompt sent back is
// addressed when DIR/fix-<id> exists: a commit, then review again). A
// question is answered as Claude's are, by one key; DIR/answer-<id> has
// it. DIR/log gets "start ID" and "end ID" around its work.
const fakeWorker = `#!/bin/sh
stty -echo
dir='@DIR@'
id="$HERDR_TASK_ID"
mode=$(cat "$dir/mode-$id" 2>/dev/null)
printf 'claude ready\n'
while read line; do echo "$line" >> "$dir/prompt-$id"; case "$line" in *"task report"*) break ;; esac; done
echo "start $id" >> "$dir/log"
printf '\033[2J\033[H* Thinking… (esc to interrupt)\n'
case "$mode" in
block)
  printf '\033[2J\033[HBash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n'
  stty -icanon min 1
  answer=$(dd bs=1 count=1 2>/dev/null)
  stty icanon
  echo "$answer" > "$dir/answer-$id"
  printf '\033[2J\033[H* Thinking… (esc to interrupt)\n'
  # The dispatcher reports the answered task running again; a worker
  # reports review from running only.
  until herdr task get "$id" | sed 's/"activities".*//' | grep -q '"status":"running"'; do sleep 0.1; done ;;
gate)
  until [ -e "$dir/gate-$id" ]; do sleep 0.1; done ;;
fail-once)
  if [ ! -e "$dir/failed-$id" ]; then
    : > "$dir/failed-$id"
    echo "end $id" >> "$dir/log"
    printf 'error: the build broke in step 3\n'
    exit 1
  fi ;;
esac
echo "$id" > "work-$id.txt"
git add "work-$id.txt" && git -c user.name=w -c user.email=w@e commit -qm "$id done"
echo "end $id" >> "$dir/log"
herdr task report "$id" review --message "committed work-$id.txt" > /dev/null
printf '\033[2J\033[HDone. All tests pass.\n'
while IFS= read -r line; do
  echo "$line" >> "$dir/prompt-$id"
  case "$mode:$line" in
  "review:Review of "*)
    printf '\033[2J\033[H* Thinking… (esc to interrupt)\n'
    # The rest of the prompt is read (and logged) while it waits.
    ( until [ -e "$dir/fix-$id" ]; do sleep 0.1; done
      until herdr task get "$id" | sed 's/"activities".*//' | grep -q '"status":"running"'; do sleep 0.1; done
      echo "$id, reviewed" >> "work-$id.txt"
      git -c user.name=w -c user.email=w@e commit -qam "$id: review addressed"
      herdr task report "$id" review --message "addressed the review" > /dev/null
      printf '\033[2J\033[HDone. All tests pass.\n' ) & ;;
  esac
done
`

type dispTask struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Status    string   `json:"status"`
	Attempts  int      `json:"attempts"`
	DependsOn []string `json:"depends_on"`
	LastMsg   string   `json:"last_message"`
	Worker    *struct {
		WorkspaceID string `json:"workspace_id"`
		PaneID      string `json:"pane_id"`
		Branch      string `json:"branch"`
		Path        string `json:"path"`
	} `json:"worker"`
	Activities []struct {
		Kind    string `json:"kind"`
		From    string `json:"from"`
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"activities"`
}

// dispatcherHome is a home whose server runs the dispatcher with agent,
// whose panes find the fake worker as claude and herdr on PATH, and a
// git repository to work in.
func dispatcherHome(t *testing.T, agent string) (h *Home, dir, repo string) {
	t.Helper()
	// retry_delay = 0: a crashed worker's task is picked again at once (the
	// backoff's own test is the dispatcher's, not worth 5 s of every run).
	return dispatcherHomeWith(t, "dispatcher = true\nmax_running = 2\nretry_delay = 0\nagent = "+strconvQuote(agent)+"\n")
}

// dispatcherHomeWith is dispatcherHome with its [tasks] section's keys.
func dispatcherHomeWith(t *testing.T, tasks string) (h *Home, dir, repo string) {
	t.Helper()
	h = NewHome(t)
	dir = filepath.Join(h.Dir, "d")
	bin := filepath.Join(h.Dir, "bin")
	repo = filepath.Join(h.Dir, "repo")
	for _, d := range []string{dir, bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(strings.ReplaceAll(fakeWorker, "@DIR@", dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	gate := "#!/bin/sh\nuntil [ -e '" + dir + "/go' ]; do sleep 0.1; done\n"
	if err := os.WriteFile(filepath.Join(bin, "gatewait"), []byte(gate), 0o755); err != nil {
		t.Fatal(err)
	}
	GitRepo(t, repo)
	for i, kv := range h.Env {
		if strings.HasPrefix(kv, "PATH=") {
			h.Env[i] = "PATH=" + bin + ":" + filepath.Dir(HerdrBin) + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	h.WriteConfig(t, "[tasks]\n"+tasks)
	return h, dir, repo
}

// waitLong polls cond for up to a minute and a half: a worker is a
// worktree, a shell and an agent, several of them in turn.
func waitLong(t *testing.T, why string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", why)
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func taskGet(t *testing.T, s *Server, id string) dispTask {
	t.Helper()
	return OK[struct {
		Task dispTask `json:"task"`
	}](t, s.Call("task.get", map[string]any{"task_id": id}), "task_info").Task
}

func taskCreate(t *testing.T, s *Server, params map[string]any) string {
	t.Helper()
	return OK[struct {
		Task dispTask `json:"task"`
	}](t, s.Call("task.create", params), "task_info").Task.ID
}

// kinds is the task's history as "kind[:status]" words.
func (d dispTask) kinds() []string {
	var out []string
	for _, a := range d.Activities {
		k := a.Kind
		if a.Status != "" && (a.Kind == "status") {
			k += ":" + a.Status
		}
		out = append(out, k)
	}
	return out
}

func count(list []string, want string) int {
	n := 0
	for _, s := range list {
		if s == want {
			n++
		}
	}
	return n
}

// Five tasks, a dependency chain among them, drain through the dispatcher
// with max_running = 2: each on a worker of its own (a real worktree on
// its branch, the fake agent committing there), one blocks and is
// answered, one crashes and is retried, and each task's history shows
// every step.
func TestE2E_DispatcherDrainsTheBoard(t *testing.T) {
	h, dir, repo := dispatcherHome(t, "claude {id} {title}")
	s := h.Start(t, "e2e")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// task-1 waits at its gate, task-4 blocks: both slots are taken.
	write("mode-task-1", "gate")
	write("mode-task-4", "block")
	write("mode-task-5", "fail-once")
	t1 := taskCreate(t, s, map[string]any{"title": "Add retry policy", "cwd": repo})
	t2 := taskCreate(t, s, map[string]any{"title": "Use it in the client", "cwd": repo, "depends_on": []string{t1}})
	t3 := taskCreate(t, s, map[string]any{"title": "Document it", "cwd": repo, "depends_on": []string{t2}})
	t4 := taskCreate(t, s, map[string]any{"title": "Clean the build", "cwd": repo})
	t5 := taskCreate(t, s, map[string]any{"title": "Fix the flaky test", "cwd": repo, "priority": 1})
	stopCast := recordBoard(t, s, repo)
	defer stopCast()

	// task-4 asks its question: the board says blocked, with the question.
	waitLong(t, "task-4 blocked with its question", func() bool {
		return taskGet(t, s, t4).Status == "blocked"
	})
	if got := taskGet(t, s, t4); !strings.Contains(got.LastMsg, "Do you want to proceed?") {
		t.Fatalf("blocked message %q does not carry the question", got.LastMsg)
	}
	waitLong(t, "task-1 running", func() bool { return taskGet(t, s, t1).Status == "running" })
	// Two workers: task-5, ready, waits for a slot.
	if got := taskGet(t, s, t5); got.Status != "ready" || got.Worker != nil {
		t.Fatalf("task-5 picked past max_running = 2: %+v", got)
	}
	// Both at work before either ends.
	waitLong(t, "task-1 at work", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "log"))
		return strings.Contains(string(b), "start "+t1+"\n")
	})
	w4 := taskGet(t, s, t4).Worker
	OK[struct{}](t, s.Call("pane.send_input", map[string]any{"pane_id": w4.PaneID, "text": "1", "keys": []string{"Enter"}}), "ok")
	write("gate-task-1", "")

	// The reviewer: a task in review is accepted (done), which releases its
	// dependants; a failed one is retried once.
	retried := false
	waitLong(t, "every task done", func() bool {
		all := 0
		for _, id := range []string{t1, t2, t3, t4, t5} {
			switch got := taskGet(t, s, id); got.Status {
			case "review":
				OK[struct{}](t, s.Call("task.report", map[string]any{"task_id": id, "status": "done", "message": "looks good"}), "task_info")
			case "failed":
				if retried {
					t.Fatalf("%s failed twice: %q", id, got.LastMsg)
				}
				if id != t5 || !strings.Contains(got.LastMsg, "the build broke in step 3") {
					t.Fatalf("%s failed: %q", id, got.LastMsg)
				}
				retried = true
				OK[struct{}](t, s.Call("task.report", map[string]any{"task_id": id, "status": "ready", "message": "retry"}), "task_info")
			case "done":
				all++
			}
		}
		return all == 5
	})

	// Never more than two at work at once, and two at once it was.
	log, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	at, most := 0, 0
	for _, l := range Lines(string(log)) {
		if strings.HasPrefix(l, "start ") {
			at++
		} else if strings.HasPrefix(l, "end ") {
			at--
		}
		most = max(most, at)
	}
	if most != 2 {
		t.Fatalf("at most %d workers at once, want 2:\n%s", most, log)
	}
	// Order of the chain: task-2 started after task-1 ended, task-3 after task-2.
	pos := func(line string) int { return strings.Index(string(log), line+"\n") }
	if !(pos("end "+t1) < pos("start "+t2) && pos("end "+t2) < pos("start "+t3)) {
		t.Fatalf("the dependency chain was not kept:\n%s", log)
	}

	for _, id := range []string{t1, t2, t3, t4, t5} {
		got := taskGet(t, s, id)
		k := got.kinds()
		want := map[string]int{"claimed": 1, "dispatched": 1, "status:review": 1, "status:done": 1}
		if id == t5 {
			want = map[string]int{"claimed": 2, "dispatched": 2, "status:failed": 1, "status:ready": 1, "status:review": 1, "status:done": 1}
		}
		if id == t4 {
			want["status:blocked"] = 1
		}
		for kind, n := range want {
			if c := count(k, kind); c < n {
				t.Errorf("%s history has %d %s, want %d: %v", id, c, kind, n, k)
			}
		}
		if c := count(k, "dispatched"); c != want["dispatched"] {
			t.Errorf("%s dispatched %d times: %v", id, c, k)
		}
		if got.Worker == nil || !strings.HasPrefix(got.Worker.Branch, "task/"+id+"-") {
			t.Fatalf("%s worker %+v", id, got.Worker)
		}
		// The work is on the task's branch, in a worktree of its own.
		out, err := exec.Command("git", "-C", repo, "log", "--format=%s", got.Worker.Branch).CombinedOutput()
		if err != nil || !strings.Contains(string(out), id+" done") {
			t.Errorf("branch %s: %v\n%s", got.Worker.Branch, err, out)
		}
		if _, err := os.Stat(filepath.Join(got.Worker.Path, "work-"+id+".txt")); err != nil {
			t.Errorf("%s worktree: %v", id, err)
		}
	}
	// The question, then the answer: blocked, then running again.
	k4 := strings.Join(taskGet(t, s, t4).kinds(), " ")
	if b := strings.Index(k4, "status:blocked"); b < 0 || !strings.Contains(k4[b:], "status:running") {
		t.Errorf("task-4 was not reported blocked, then running again after its answer: %v", k4)
	}
	if got := taskGet(t, s, t5); got.Attempts != 2 {
		t.Errorf("task-5 attempts %d, want 2", got.Attempts)
	}
	if got := taskGet(t, s, t2); got.Attempts != 1 || len(got.DependsOn) != 1 {
		t.Errorf("task-2: %+v", got)
	}
}

// A server killed (SIGKILL) after the durable record and before the
// prompt: the next server's dispatcher adopts the claimed worker (same
// workspace and pane, same worktree) and dispatches the task once.
func TestE2E_DispatcherRestartDoesNotDispatchTwice(t *testing.T) {
	h, dir, repo := dispatcherHome(t, "gatewait && claude {id}")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "Survive a crash", "cwd": repo})
	var claimed dispTask
	waitLong(t, "the worker's pane recorded", func() bool {
		claimed = taskGet(t, s, id)
		return claimed.Worker != nil && claimed.Worker.PaneID != ""
	})
	if claimed.Status != "ready" || count(claimed.kinds(), "dispatched") != 0 {
		t.Fatalf("dispatched past the gate: %+v", claimed)
	}
	// The board's store: one file per task beside session.json.
	taskFile := filepath.Join(h.ConfigHome, "herdr", "sessions", "e2e", "tasks", id+".json")
	waitLong(t, "the claim saved", func() bool {
		b, _ := os.ReadFile(taskFile)
		var st dispTask
		if json.Unmarshal(b, &st) != nil {
			return false
		}
		return st.ID == id && st.Worker != nil && st.Worker.PaneID == claimed.Worker.PaneID
	})
	s.Kill(t)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	s = h.Start(t, "e2e")
	var got dispTask
	waitLong(t, "the task in review after the restart", func() bool {
		got = taskGet(t, s, id)
		return got.Status == "review"
	})
	if n := count(got.kinds(), "dispatched"); n != 1 {
		t.Fatalf("dispatched %d times: %v", n, got.kinds())
	}
	if got.Attempts != 1 || got.Worker == nil || got.Worker.PaneID != claimed.Worker.PaneID || got.Worker.WorkspaceID != claimed.Worker.WorkspaceID {
		t.Fatalf("worker not adopted: before %+v, after %+v (attempts %d)", claimed.Worker, got.Worker, got.Attempts)
	}
	out, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").CombinedOutput()
	if err != nil || strings.Count(string(out), "branch refs/heads/task/") != 1 {
		t.Fatalf("worktrees: %v\n%s", err, out)
	}
	ws := OK[struct {
		Workspaces []struct {
			WorkspaceID string `json:"workspace_id"`
		} `json:"workspaces"`
	}](t, s.Call("workspace.list", nil), "workspace_list")
	if len(ws.Workspaces) != 1 {
		t.Fatalf("workspaces after the restart: %+v", ws.Workspaces)
	}
}

// Off by default: a ready task waits until `herdr task run` turns the
// dispatcher on, whose --max-running bounds it from then on.
func TestE2E_DispatcherTaskRun(t *testing.T) {
	h, dir, repo := dispatcherHomeWith(t, "max_running = 2\n")
	s := h.Start(t, "e2e")
	if err := os.WriteFile(filepath.Join(dir, "mode-task-1"), []byte("gate"), 0o600); err != nil {
		t.Fatal(err)
	}
	t1 := taskCreate(t, s, map[string]any{"title": "First", "cwd": repo})
	t2 := taskCreate(t, s, map[string]any{"title": "Second", "cwd": repo})
	// The board is the dispatcher's only once it runs: a ready task waits.
	if got := taskGet(t, s, t1); got.Worker != nil || got.Status != "ready" {
		t.Fatalf("claimed with the dispatcher off: %+v", got)
	}
	if out := AgentCLI(t, s, "task", "run", "--max-running", "1"); !strings.Contains(out, `"type":"ok"`) {
		t.Fatalf("task run: %s", out)
	}
	waitLong(t, "task-1 at work", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "log"))
		return strings.Contains(string(b), "start "+t1+"\n")
	})
	// One worker at a time: task-2 waits for task-1's.
	if got := taskGet(t, s, t2); got.Worker != nil || got.Status != "ready" {
		t.Fatalf("task-2 picked past --max-running 1: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "gate-task-1"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "both in review", func() bool {
		return taskGet(t, s, t1).Status == "review" && taskGet(t, s, t2).Status == "review"
	})
	// The prompt sends the agent to its worktree, not to the task's folder.
	w := taskGet(t, s, t1).Worker
	prompt, err := os.ReadFile(filepath.Join(dir, "prompt-"+t1))
	if err != nil || w == nil || w.Path == "" {
		t.Fatalf("prompt %v, worker %+v", err, w)
	}
	if !strings.Contains(string(prompt), "Work in "+w.Path+" ") || strings.Contains(string(prompt), "Work in "+repo+".") {
		t.Fatalf("the prompt does not name the worktree %s:\n%s", w.Path, prompt)
	}
}

// givenUpKinds are a task's given-up workers' release messages, in order.
func (d dispTask) givenUp() []string {
	var out []string
	for _, a := range d.Activities {
		if a.Kind == "unclaimed" && strings.HasPrefix(a.Message, "given up (attempt ") {
			out = append(out, a.Message)
		}
	}
	return out
}

// An agent command that does not exist: each worker is given up when its
// agent is not recognised within agent_start_timeout, with the shell's
// words in the task's activity and a warn line in the log; its workspace
// goes; after max_attempts the task is failed with the reason.
func TestE2E_DispatcherGivesUpAMissingAgent(t *testing.T) {
	h, _, repo := dispatcherHomeWith(t, "dispatcher = true\nagent = \"herdr-no-such-agent {id}\"\nagent_start_timeout = 1\nmax_attempts = 2\nretry_delay = 0\n")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "Never starts", "cwd": repo})
	var got dispTask
	waitLong(t, "the task failed", func() bool {
		got = taskGet(t, s, id)
		return got.Status == "failed"
	})
	given := got.givenUp()
	if len(given) != 2 || !strings.HasPrefix(given[0], "given up (attempt 1 of 2)") || !strings.HasPrefix(given[1], "given up (attempt 2 of 2)") {
		t.Fatalf("given-up workers: %q\n%v", given, got.kinds())
	}
	for _, g := range given {
		if !strings.Contains(g, "not recognised in its pane within 1s") || !strings.Contains(g, "herdr-no-such-agent") || !strings.Contains(g, "not found") {
			t.Errorf("the reason does not say the command was not found: %q", g)
		}
	}
	if !strings.Contains(got.LastMsg, "gave up after 2 attempts") || !strings.Contains(got.LastMsg, "not found") {
		t.Errorf("failed with %q", got.LastMsg)
	}
	if got.Worker != nil || count(got.kinds(), "dispatched") != 0 {
		t.Errorf("claim kept or dispatched: %+v %v", got.Worker, got.kinds())
	}
	ws := OK[struct {
		Workspaces []struct {
			WorkspaceID string `json:"workspace_id"`
		} `json:"workspaces"`
	}](t, s.Call("workspace.list", nil), "workspace_list")
	if len(ws.Workspaces) != 0 {
		t.Errorf("the given-up workers' workspaces are open: %+v", ws.Workspaces)
	}
	if log := h.ServerLog("e2e"); strings.Count(log, "level=WARN msg=\"dispatcher: worker given up\"") != 2 {
		t.Errorf("no warn line per given-up worker in the log:\n%s", log)
	}
}

// A program that runs but is never recognised as an agent is given up at
// the bound, the claim released with the reason; with max_attempts = 1
// the task fails at once.
func TestE2E_DispatcherGivesUpAnUnrecognisedAgent(t *testing.T) {
	h, _, repo := dispatcherHomeWith(t, "dispatcher = true\nagent = \"echo not an agent; sleep 600\"\nagent_start_timeout = 1\nmax_attempts = 1\n")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "Not an agent", "cwd": repo})
	var got dispTask
	waitLong(t, "the task failed", func() bool {
		got = taskGet(t, s, id)
		return got.Status == "failed"
	})
	given := got.givenUp()
	if len(given) != 1 || !strings.Contains(given[0], "attempt 1 of 1") || !strings.Contains(given[0], "not recognised") || !strings.Contains(given[0], "not an agent") {
		t.Fatalf("given up: %q", given)
	}
	if !strings.Contains(got.LastMsg, "gave up after 1 attempt:") {
		t.Errorf("failed with %q", got.LastMsg)
	}
	// A person's retry starts the count again.
	OK[struct{}](t, s.Call("task.report", map[string]any{"task_id": id, "status": "ready", "message": "retry"}), "task_info")
	waitLong(t, "the task failed again", func() bool {
		got = taskGet(t, s, id)
		return got.Status == "failed" && len(got.givenUp()) == 2
	})
	if g := got.givenUp(); !strings.Contains(g[1], "attempt 1 of 1") {
		t.Errorf("the retry's attempt: %q", g[1])
	}
}

// A task without a cwd: refused at task.create while the dispatcher runs;
// one created before it ran is never picked, and its history says why.
func TestE2E_DispatcherTaskWithoutCwd(t *testing.T) {
	h, _, _ := dispatcherHomeWith(t, "max_running = 1\n")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "Nowhere"})
	if out := AgentCLI(t, s, "task", "run"); !strings.Contains(out, `"type":"ok"`) {
		t.Fatalf("task run: %s", out)
	}
	waitLong(t, "the reason it is not picked", func() bool {
		return strings.Contains(taskGet(t, s, id).LastMsg, "no cwd")
	})
	if got := taskGet(t, s, id); got.Status != "ready" || got.Worker != nil {
		t.Fatalf("a task without a cwd was picked: %+v", got)
	}
	waitLong(t, "task.create refusing a task without a cwd", func() bool {
		r := s.Call("task.create", map[string]any{"title": "Nowhere either"})
		return r.Error != nil && r.Error.Code == "invalid_params" && strings.Contains(r.Error.Message, "cwd") && strings.Contains(r.Error.Message, "dispatcher")
	})
	_, errOut, code := s.CLI("task", "create", "--title", "Still nowhere")
	if code != 1 || !strings.Contains(errOut, "--cwd") {
		t.Fatalf("CLI task create without --cwd: exit %d %s", code, errOut)
	}
}

// server.reload_config applies [tasks] (here: turns the dispatcher on with
// its agent) and names the keys that need a restart, as does the CLI.
func TestE2E_DispatcherReloadConfig(t *testing.T) {
	h, dir, repo := dispatcherHomeWith(t, "max_running = 1\n")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "After the reload", "cwd": repo})
	h.WriteConfig(t, "kitty_graphics = false\n[tasks]\ndispatcher = true\nagent = \"claude {id}\"\n")
	r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload")
	if r.Status != "applied" || strings.Join(r.RestartRequired, ",") != "terminal.kitty_graphics" {
		t.Fatalf("reload: %+v", r)
	}
	waitLong(t, "the task in review", func() bool { return taskGet(t, s, id).Status == "review" })
	if _, err := os.Stat(filepath.Join(dir, "prompt-"+id)); err != nil {
		t.Fatalf("the reloaded agent did not run: %v", err)
	}
	out, errOut, code := s.CLI("server", "reload-config")
	if code != 0 || !strings.Contains(out, `"restart_required":["terminal.kitty_graphics"]`) || !strings.Contains(errOut, "terminal.kitty_graphics apply only after a restart") {
		t.Fatalf("CLI reload-config: exit %d\n%s\n%s", code, out, errOut)
	}
	// Back as the server started: nothing needs a restart.
	h.WriteConfig(t, "[tasks]\ndispatcher = true\n")
	if r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload"); len(r.RestartRequired) != 0 {
		t.Fatalf("reload as started: %+v", r)
	}
}

// [remote] ssh_command changed by a reload: a machine added afterwards
// links with the new command.
func TestE2E_ReloadConfigAppliesSSHCommand(t *testing.T) {
	h := NewHome(t)
	seen := filepath.Join(h.Dir, "ssh-args")
	fake := filepath.Join(h.Dir, "fake-ssh")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> '"+seen+"'\nexit 255\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	h.WriteConfig(t, "[remote]\nssh_command = \""+fake+" -o Fake=yes\"\n")
	if r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload"); r.Status != "applied" || len(r.RestartRequired) != 0 {
		t.Fatalf("reload: %+v", r)
	}
	file := `{"machines":[{"id":"m-0000abcd","label":"later","target":"nobody@later.invalid","enabled":true}]}`
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "machines.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	waitLong(t, "the new machine linked with the reloaded ssh command", func() bool {
		b, _ := os.ReadFile(seen)
		return strings.Contains(string(b), "-o Fake=yes") && strings.Contains(string(b), "nobody@later.invalid")
	})
}

// recordBoard records, when HERDR_TASKS_CAST names a file, a pane that
// shows `herdr task board` ten times a second while the scenario runs: the
// asciicast the README links (docs/tasks-board.cast). Off, it does
// nothing.
func recordBoard(t *testing.T, s *Server, cwd string) (stop func()) {
	cast := os.Getenv("HERDR_TASKS_CAST")
	if cast == "" {
		return func() {}
	}
	cast, _ = filepath.Abs(cast)
	ws := s.CreateWorkspace(t, map[string]any{"cwd": cwd, "label": "board"})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)
	s.Run(t, pane, "while :; do printf '\\033[H\\033[2J'; herdr task board; sleep 0.1; done")
	OK[struct{}](t, s.Call("pane.record.start", map[string]any{"pane_id": pane, "path": cast}), "pane_record_started")
	return func() {
		time.Sleep(time.Second) // the last board, all done
		s.Call("pane.record.stop", map[string]any{"pane_id": pane})
	}
}

// A task whose folder is no git repository: the worktree step fails, and
// the task's history and the log say why (git's words: the create's and
// the open's tried after it), then it fails.
func TestE2E_DispatcherNoWorktreeSaysWhy(t *testing.T) {
	h, dir, _ := dispatcherHomeWith(t, "dispatcher = true\nmax_attempts = 1\n")
	s := h.Start(t, "e2e")
	id := taskCreate(t, s, map[string]any{"title": "Not a repo", "cwd": dir})
	var got dispTask
	waitLong(t, "the task failed", func() bool {
		got = taskGet(t, s, id)
		return got.Status == "failed"
	})
	given := got.givenUp()
	t.Logf("failed with %q", got.LastMsg)
	if len(given) != 1 || !strings.Contains(given[0], "no worktree: create: ") || !strings.Contains(given[0], "; open: ") || !strings.Contains(got.LastMsg, "no worktree: ") {
		t.Fatalf("given up %q, failed with %q", given, got.LastMsg)
	}
	if log := h.ServerLog("e2e"); !strings.Contains(log, `level=WARN msg="dispatcher: worker given up" task=`+id) || !strings.Contains(log, "no worktree") {
		t.Errorf("no warn line saying why in the log:\n%s", log)
	}
}
