package dispatcher

import (
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestPick_PriorityThenIDWithinTheBound(t *testing.T) {
	tasks := map[string]*taskView{
		"task-1":  {ID: "task-1", Status: statusReady, Cwd: "/r", Priority: 5},
		"task-2":  {ID: "task-2", Status: statusReady, Cwd: "/r", Priority: 0},
		"task-10": {ID: "task-10", Status: statusReady, Cwd: "/r", Priority: 0},
		"task-9":  {ID: "task-9", Status: statusReady, Cwd: "/r", Priority: 0},
		"task-3":  {ID: "task-3", Status: "backlog", Cwd: "/r"},     // dependencies not done
		"task-4":  {ID: "task-4", Status: statusRunning, Cwd: "/r"}, // someone's already
		"task-5":  {ID: "task-5", Status: statusReady},              // no folder for a worktree
		"task-6":  {ID: "task-6", Status: statusReady, Cwd: "/r", Priority: -1},
		"task-7":  {ID: "task-7", Status: statusReady, Cwd: "/r", Priority: -2},
	}
	ids := func(ts []*taskView) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	if got, want := ids(pick(tasks, nil, nil, 10)), []string{"task-7", "task-6", "task-2", "task-9", "task-10", "task-1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order: %v, want %v", got, want)
	}
	// A task with a worker is never picked twice; a held one waits; the
	// bound is the free slots.
	busy := map[string]bool{"task-7": true}
	held := map[string]bool{"task-6": true}
	if got, want := ids(pick(tasks, busy, held, 2)), []string{"task-2", "task-9"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("busy/held/bound: %v, want %v", got, want)
	}
	if got := pick(tasks, nil, nil, 0); got != nil {
		t.Fatalf("no free slot picked %v", ids(got))
	}
}

func TestBranchName_SlugOfTitle(t *testing.T) {
	for _, c := range []struct{ prefix, id, title, want string }{
		{"task/", "task-3", "Add retry policy", "task/task-3-add-retry-policy"},
		{"task/", "task-4", "  Fix: the *bug* in ~/x..y (again)!  ", "task/task-4-fix-the-bug-in-x-y-again"},
		{"task/", "task-5", "日本語", "task/task-5"},
		{"w/", "task-6", strings.Repeat("abc ", 30), "w/task-6-" + strings.TrimRight(strings.Repeat("abc-", 10), "-")},
	} {
		got, err := BranchName(c.prefix, c.id, c.title)
		if err != nil || got != c.want {
			t.Errorf("BranchName(%q, %q, %q) = %q, %v; want %q", c.prefix, c.id, c.title, got, err, c.want)
		}
	}
	if _, err := BranchName("-bad ", "task-1", "x"); err == nil {
		t.Fatal("a prefix git refuses made a branch")
	}
}

// The command line, run by each real shell it is quoted for, hands the
// agent the task's id and title as single words whatever they hold, and
// exports HERDR_TASK_ID; nothing in the title runs (no file appears).
func TestCommandLine_QuotedForTheRunningShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the POSIX shells and fish are not on Windows")
	}
	titles := []string{
		`it's "$HOME" $(touch pwned) ; {id} \n` + "\x15tab\tend",
		`'; touch pwned; '`,
		`x\`,
		`(touch pwned)`,
		"`touch pwned`",
		`a\'; touch pwned; echo \`,
	}
	ran := 0
	for _, sh := range []string{"sh", "bash", "zsh", "fish"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			t.Logf("%s is not installed: not run", sh)
			continue
		}
		ran++
		for _, title := range titles {
			line, err := CommandLine(path, `printf '%s|' {id} {title} "$HERDR_TASK_ID"`, "task-7", title)
			if err != nil {
				t.Fatalf("%s %q: %v", sh, title, err)
			}
			if strings.ContainsAny(line, "\x15\t\n\r") {
				t.Fatalf("a control character reaches the typed line: %q", line)
			}
			dir := t.TempDir()
			args := []string{"-c", line}
			if sh == "fish" {
				args = []string{"--no-config", "-c", line}
			}
			cmd := exec.Command(path, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s -c %q: %v", sh, line, err)
			}
			flat := strings.NewReplacer("\x15", " ", "\t", " ").Replace(title)
			if want := "task-7|" + flat + "|task-7|"; string(out) != want {
				t.Errorf("%s ran %s\nprinted %q\nwant    %q", sh, line, out, want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%s ran %s: it made %v", sh, line, entries)
			}
		}
	}
	if ran == 0 {
		t.Skip("no shell installed")
	}
}

// A shell whose quoting is not known takes a plain title; any other is
// refused, saying why, rather than guessed.
func TestCommandLine_UnknownShellRefusesWhatNeedsQuoting(t *testing.T) {
	line, err := CommandLine("tcsh", "claude {id} {title}", "task-3", "plain-title")
	if err != nil || line != "export HERDR_TASK_ID=task-3; claude task-3 plain-title" {
		t.Fatalf("plain: %q %v", line, err)
	}
	for _, shell := range []string{"tcsh", ""} {
		if line, err := CommandLine(shell, "claude {id} {title}", "task-3", "'; touch x; '"); err == nil || !strings.Contains(err.Error(), "title") {
			t.Errorf("%q: %q %v, want refused naming the title", shell, line, err)
		}
	}
	// A template without {title} does not need the title quoted.
	if _, err := CommandLine("", "claude {id}", "task-3", "it's"); err != nil {
		t.Errorf("no {title}: %v", err)
	}
	if line, err := CommandLine("pwsh", "claude {id} {title}", "task-3", "it's"); err != nil || line != "$env:HERDR_TASK_ID = 'task-3'; claude task-3 'it''s'" {
		t.Errorf("pwsh: %q %v", line, err)
	}
}

func TestLastLines(t *testing.T) {
	text := "one\n\n  two  \nthree\n   \n\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n\n\n"
	if got, want := LastLines(text, 3, "x"), "Do you want to proceed?\n❯ 1. Yes\n  2. No"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := LastLines(" \n\n", 3, "dflt"); got != "dflt" {
		t.Fatalf("blank: %q", got)
	}
	long := strings.Repeat(strings.Repeat("x", 500)+"\n", 10)
	if got := LastLines(long, 10, ""); len(got) > quoteMax || !strings.HasSuffix(got, "xxx") {
		t.Fatalf("bound: %d bytes", len(got))
	}
}
