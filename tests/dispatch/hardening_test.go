package dispatch

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Hardening round four (issue 44) of the dispatcher: dead workers,
// text typed for someone, quoting by the shell running in the pane.

// savedTasks is the board as its store keeps it: one file per task in tasks/.
func savedTasks(t *testing.T, h *Home) []dispTask {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(h.SessionFile("e2e")), "tasks", "task-*.json"))
	var tasks []dispTask
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var task dispTask
		if json.Unmarshal(b, &task) == nil {
			tasks = append(tasks, task)
		}
	}
	return tasks
}

// noneOf fails for each path that exists: a command the text carried ran.
func noneOf(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists: a command carried by the text ran", p)
		}
	}
}

// A server killed (SIGKILL) with two tasks running, max_running = 2: the
// next server finds their panes with new shells and no agent. Each dead
// worker is released (its task failed with why, then ready again, one
// attempt counted) and its slot freed, so the two ready tasks are picked
// and the two released ones run again: the board moves on to review.
func TestE2E_DispatcherRedispatchesDeadWorkers(t *testing.T) {
	h, dir, repo := dispatcherHomeWith(t, "dispatcher = true\nmax_running = 2\nagent = \"claude {id}\"\nagent_start_timeout = 5\nmax_attempts = 3\nretry_delay = 0\n")
	s := h.Start(t, "e2e")
	for _, id := range []string{"task-1", "task-2"} {
		if err := os.WriteFile(filepath.Join(dir, "mode-"+id), []byte("gate"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ids := []string{
		taskCreate(t, s, map[string]any{"title": "First", "cwd": repo}),
		taskCreate(t, s, map[string]any{"title": "Second", "cwd": repo}),
		taskCreate(t, s, map[string]any{"title": "Third", "cwd": repo, "priority": 1}),
		taskCreate(t, s, map[string]any{"title": "Fourth", "cwd": repo, "priority": 1}),
	}
	waitLong(t, "task-1 and task-2 at work", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "log"))
		return strings.Contains(string(b), "start task-1\n") && strings.Contains(string(b), "start task-2\n")
	})
	waitLong(t, "both running, saved", func() bool {
		n := 0
		for _, st := range savedTasks(t, h) {
			if (st.ID == ids[0] || st.ID == ids[1]) && st.Status == "running" && st.Worker != nil && st.Worker.PaneID != "" {
				n++
			}
		}
		return n == 2
	})
	s.Kill(t)
	// The next workers of task-1 and task-2 finish.
	for _, id := range []string{"task-1", "task-2"} {
		if err := os.WriteFile(filepath.Join(dir, "gate-"+id), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	s = h.Start(t, "e2e")
	waitLong(t, "every task in review", func() bool {
		for _, id := range ids {
			if taskGet(t, s, id).Status != "review" {
				return false
			}
		}
		return true
	})
	for _, id := range ids[:2] {
		got := taskGet(t, s, id)
		given := got.givenUp()
		if len(given) != 1 || !strings.HasPrefix(given[0], "given up (attempt 1 of 3): the worker's agent is gone") {
			t.Errorf("%s: the dead worker's release: %q\n%v", id, given, got.kinds())
		}
		k := got.kinds()
		if count(k, "dispatched") != 2 || count(k, "status:failed") != 1 || count(k, "status:ready") != 1 || got.Attempts != 2 {
			t.Errorf("%s: not failed, returned to ready and dispatched again once: attempts %d, %v", id, got.Attempts, k)
		}
	}
	for _, id := range ids[2:] {
		if got := taskGet(t, s, id); count(got.kinds(), "dispatched") != 1 || len(got.givenUp()) != 0 {
			t.Errorf("%s: %v", id, got.kinds())
		}
	}
	if log := h.ServerLog("e2e"); !strings.Contains(log, "level=WARN msg=\"dispatcher: worker gone\"") {
		t.Errorf("no warn line for the dead workers in the log:\n%s", log)
	}
}

// A task's description holding Ctrl-C (which would end the agent and hand
// what follows to its shell), an OSC 52 and a bracketed-paste end reaches
// the agent with none of them; the command it carries runs nowhere.
func TestE2E_DispatchPromptIsTypedText(t *testing.T) {
	h, dir, repo := dispatcherHome(t, "claude {id}")
	s := h.Start(t, "e2e")
	pwned := filepath.Join(dir, "pwned")
	desc := "Fix the build.\x03touch " + pwned + "-ctrlc\n" +
		"Copy \x1b]52;c;cHduZWQ=\x07 this and\x1b[201~touch " + pwned + "-paste\n" +
		"Then \x1b[2J\u009b1mfinish\x7f\x15 it.\r\nDone."
	id := taskCreate(t, s, map[string]any{"title": "Hostile description", "cwd": repo, "description": desc})
	waitLong(t, "the task in review", func() bool {
		noneOf(t, pwned+"-ctrlc", pwned+"-paste")
		if t.Failed() {
			t.FailNow()
		}
		// A Ctrl-C typed raw ends the agent: no review then.
		return taskGet(t, s, id).Status == "review"
	})
	prompt, err := os.ReadFile(filepath.Join(dir, "prompt-"+id))
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(string(prompt), func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f }); i >= 0 {
		t.Fatalf("a control character reached the agent at %d: %q", i, prompt)
	}
	for _, want := range []string{"Fix the build.\uFFFDtouch " + pwned + "-ctrlc", "this andtouch " + pwned + "-paste", "Done."} {
		if !strings.Contains(string(prompt), want) {
			t.Errorf("the prompt lost %q:\n%q", want, prompt)
		}
	}
	noneOf(t, pwned+"-ctrlc", pwned+"-paste")
}

// fishOrSkip is fish's path, or skips the test naming it.
func fishOrSkip(t *testing.T) string {
	t.Helper()
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish is not installed")
	}
	return fish
}

// hostileWords break one shell's quoting or another's: fish's \' inside
// single quotes (then its command substitution), a POSIX quote break-out
// and command substitution.
func hostileWords(pwned string) []string {
	return []string{
		`\' (touch ` + pwned + `-fish) #`,
		`'; touch ` + pwned + `-posix; '`,
		`$(touch ` + pwned + `-subst)`,
		`(touch ` + pwned + `-paren)`,
	}
}

// Under default_shell = fish, a title that breaks POSIX quoting in fish
// is quoted for fish: nothing in it runs, and the agent starts.
func TestE2E_DispatcherQuotesForFish(t *testing.T) {
	fish := fishOrSkip(t)
	h, dir, repo := dispatcherHome(t, "claude {id} {title}")
	cfg := "[terminal]\ndefault_shell = " + strconvQuote(fish) + "\n[tasks]\ndispatcher = true\nagent = \"claude {id} {title}\"\n"
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	pwned := filepath.Join(dir, "pwned")
	var ids []string
	for _, w := range hostileWords(pwned) {
		ids = append(ids, taskCreate(t, s, map[string]any{"title": w, "cwd": repo}))
	}
	waitLong(t, "every task in review", func() bool {
		for _, id := range ids {
			if taskGet(t, s, id).Status != "review" {
				return false
			}
		}
		return true
	})
	noneOf(t, pwned+"-fish", pwned+"-posix", pwned+"-subst", pwned+"-paren")
}

// agent.start in a bash pane that has exec'd fish quotes its arguments
// for fish, the shell running there: the agent gets them word for word
// and none runs a command.
func TestE2E_AgentStartQuotesForTheRunningShell(t *testing.T) {
	fish := fishOrSkip(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	h, dir, _ := dispatcherHomeWith(t, "")
	cfg := "[terminal]\ndefault_shell = " + strconvQuote(bash) + "\n"
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// An agent that writes its arguments down, one a line.
	argvFile := filepath.Join(dir, "argv")
	agent := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + argvFile + "'\nprintf 'claude ready\\n'\nwhile read line; do :; done\n"
	if err := os.WriteFile(filepath.Join(h.Dir, "bin", "claude"), []byte(agent), 0o755); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	pane := s.CreateWorkspace(t, nil).RootPane.PaneID
	s.Run(t, pane, "exec "+fish+" --no-config")
	WaitFor(t, "fish in front of the pane", func() bool {
		info := OK[protocol.PaneProcessInfoResult](t, s.Call("pane.process_info", map[string]any{"pane_id": pane}), "pane_process_info").ProcessInfo
		return slices.ContainsFunc(info.ForegroundProcesses, func(p protocol.PaneProcessInfoProcess) bool { return p.Name == "fish" })
	})
	pwned := filepath.Join(dir, "pwned")
	args := hostileWords(pwned)
	OK[protocol.AgentStarted](t, s.Call("agent.start", map[string]any{"name": "alpha", "kind": "claude", "pane_id": pane, "args": args, "timeout_ms": 30000}), "agent_started")
	var got []byte
	WaitFor(t, "the agent's arguments", func() bool {
		got, err = os.ReadFile(argvFile)
		return err == nil && len(got) > 0
	})
	if want := strings.Join(args, "\n") + "\n"; string(got) != want {
		t.Errorf("the agent got\n%q\nwant\n%q", got, want)
	}
	noneOf(t, pwned+"-fish", pwned+"-posix", pwned+"-subst", pwned+"-paren")
}
