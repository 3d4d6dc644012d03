//go:build unix

package hardening

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

// gitOut runs git in dir and returns its trimmed output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// worktree.create refuses a branch or base git would take for an option
// (or that is no ref name) before any git runs: {"branch":"-D",
// "base":"precious"} once ran `git branch -D precious` inside `git
// worktree add -b` and deleted the unmerged branch. Each hostile value
// is refused with invalid_params, on the socket and through the CLI, and
// afterwards the repository is exactly as it was: precious on its
// commit, the same branches, no worktree.
func TestHardening_WorktreeCreateRefusesOptionLikeRefs(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	gitOut(t, repo, "checkout", "-q", "-b", "precious")
	if err := os.WriteFile(filepath.Join(repo, "work.txt"), []byte("unmerged work\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "add", "work.txt")
	gitOut(t, repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "unmerged")
	gitOut(t, repo, "checkout", "-q", "main")
	precious := gitOut(t, repo, "rev-parse", "refs/heads/precious")
	branches := gitOut(t, repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")
	trees := gitOut(t, repo, "worktree", "list", "--porcelain")

	s := h.Start(t, "gitrefs")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})

	hostile := []string{"-D", "--unset-upstream", "--lock", "-q", "-f", "precious..main", "main~1", "x@{0}", "a b", "bad\x1b]52;c;eA==\a", "refs/.hidden", "x.lock", "end/", "HEAD:x"}
	var cases []map[string]any
	for _, v := range hostile {
		cases = append(cases,
			map[string]any{"workspace_id": "w1", "branch": v, "base": "precious"},
			map[string]any{"workspace_id": "w1", "branch": "fine", "base": v})
	}
	for _, prm := range cases {
		resp := s.Call("worktree.create", prm)
		if resp.Error == nil || resp.Error.Code != protocol.CodeInvalidParams {
			t.Errorf("worktree.create %q: %+v %s, want %s", prm, resp.Error, Clip(resp.Result), protocol.CodeInvalidParams)
		} else if strings.ContainsAny(resp.Error.Message, "\x1b\a") {
			t.Errorf("the message carries control bytes: %q", resp.Error.Message)
		}
	}
	// The CLI says the same, in one line, with exit 1.
	_, stderr, code := s.CLI("worktree", "create", "--workspace", "w1", "--branch=-D", "--base=precious")
	if code != 1 || !strings.Contains(stderr, protocol.CodeInvalidParams) {
		t.Errorf("CLI: exit %d, stderr %q; want exit 1 with %s", code, stderr, protocol.CodeInvalidParams)
	}
	// worktree.open takes no option-like branch either.
	if resp := s.Call("worktree.open", map[string]any{"workspace_id": "w1", "branch": "-D"}); resp.Error == nil || resp.Error.Code != protocol.CodeInvalidParams {
		t.Errorf("worktree.open -D: %+v, want %s", resp.Error, protocol.CodeInvalidParams)
	}

	if got := gitOut(t, repo, "rev-parse", "refs/heads/precious"); got != precious {
		t.Fatalf("precious moved from %s to %s", precious, got)
	}
	if got := gitOut(t, repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"); got != branches {
		t.Fatalf("branches changed:\n%s\nwas:\n%s", got, branches)
	}
	if got := gitOut(t, repo, "worktree", "list", "--porcelain"); got != trees {
		t.Fatalf("worktrees changed:\n%s\nwas:\n%s", got, trees)
	}
	if entries, err := os.ReadDir(filepath.Join(h.Dir, "h", ".herdr", "worktrees")); err == nil && len(entries) > 0 {
		t.Fatalf("checkout folders made: %v", entries)
	}

	// A valid branch from a valid base still works after all that.
	made := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "from-precious", "base": "precious"}), "worktree_created")
	if got := gitOut(t, made.Worktree.Path, "rev-parse", "HEAD"); got != precious {
		t.Fatalf("the new worktree is at %s, want precious's %s", got, precious)
	}
}

// `herdr --remote TARGET` runs `ssh -T -- TARGET COMMAND`: a target that
// ssh would read as an option (-oProxyCommand=... runs a local command)
// or with spaces, or a session name that is no name (it travels in the
// line the far shell reads), is a usage error before ssh runs; a good
// one reaches ssh after "--", the session as one --session=NAME word
// (so a name may start with '-').
func TestHardening_RemoteTargetIsNeverAnSSHOption(t *testing.T) {
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	argvFile := filepath.Join(h.Dir, "ssh-argv")
	stub := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argvFile + "\necho 'ssh: no route' >&2\nexit 255\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(stub), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"TERM=xterm-256color", "HERDR_REMOTE_BINARY=herdr"}
	for _, kv := range h.Env {
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
		env = append(env, kv)
	}
	run := func(args ...string) (int, string) {
		t.Helper()
		os.Remove(argvFile)
		cmd := exec.Command(HerdrBin, args...)
		cmd.Env = env
		c := StartTUI(t, cmd)
		code := c.WaitExit(t)
		screen := c.WaitScreen(t, "its message", func(sc string) bool { return strings.Contains(sc, "herdr: ") })
		return code, strings.TrimSpace(screen)
	}

	touched := filepath.Join(h.Dir, "F")
	for _, args := range [][]string{
		{"--remote=-oProxyCommand=touch " + touched, "--session", "s1"},
		{"--remote", "-oProxyCommand=touch " + touched},
		{"--remote=-T"},
		{"--remote", "dev box"},
		{"--remote", "devbox", "--session", "x;touch " + touched},
	} {
		code, screen := run(args...)
		if _, err := os.Stat(argvFile); err == nil {
			got, _ := os.ReadFile(argvFile)
			t.Errorf("%q: ssh ran with %q", args, got)
		}
		if code != 2 || len(Lines(screen)) != 1 {
			t.Errorf("%q: exit %d, output %q; want a one-line usage error, exit 2", args, code, screen)
		}
	}
	if _, err := os.Stat(touched); err == nil {
		t.Fatal("a command in the ssh target ran")
	}

	code, screen := run("--remote", "devbox", "--session", "-s1")
	if code != 1 || !strings.Contains(screen, "herdr: remote devbox: no herdr server answered") {
		t.Errorf("good target: exit %d, output %q", code, screen)
	}
	got, err := os.ReadFile(argvFile)
	if err != nil {
		t.Fatalf("ssh did not run: %v", err)
	}
	if want := "-T\n--\ndevbox\nherdr --session=-s1 remote-client-bridge\n"; string(got) != want {
		t.Errorf("ssh argv %q, want %q", got, want)
	}
}

// agent.start types its command into the pane's shell, quoted for that
// shell: in fish, the POSIX spelling of `x\` ('x\') ends the quote early
// and "; touch F; echo " ran as commands. For each shell installed, a
// server whose default_shell it is starts a stand-in agent with hostile
// arguments; the agent receives them byte for byte and nothing else runs.
func TestHardening_AgentStartQuotesForThePanesShell(t *testing.T) {
	argvs := [][]string{{`x\`, "; touch F; echo ", `z\`}, {`'`, `\'`, `''`, "$(touch F)", "`touch F`", "a b", "‘q’ “d”", "=ls", "!!", "{a,b}", "*", "~", "%self", "漢字"}}
	ran := 0
	for _, shell := range []string{"fish", "zsh", "bash", "dash"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s is not installed: not run", shell)
			continue
		}
		ran++
		t.Run(shell, func(t *testing.T) {
			h := NewHome(t)
			if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte("[terminal]\ndefault_shell = \""+path+"\"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			// No zsh-newuser-install prompt in a fresh home.
			if err := os.WriteFile(filepath.Join(h.Dir, "h", ".zshrc"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			bin, work := filepath.Join(h.Dir, "bin"), filepath.Join(h.Dir, "work")
			for _, d := range []string{bin, work} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(h.Dir, "argv")
			fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > " + out + ".tmp && mv " + out + ".tmp " + out + "\n"
			if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fake), 0o755); err != nil {
				t.Fatal(err)
			}
			s := h.Start(t, "q"+shell)
			for i, args := range argvs {
				pane := s.CreateWorkspace(t, map[string]any{"cwd": work, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}, "focus": true}).RootPane.PaneID
				s.WaitPrompt(t, pane)
				os.Remove(out)
				OK[protocol.AgentStarted](t, s.Call("agent.start", map[string]any{"name": fmt.Sprintf("hostile%d", i), "kind": "claude", "pane_id": pane, "args": args, "timeout_ms": 60000}), "agent_started")
				// A next line, the same in every shell, runs once the shell is
				// done with the whole of the agent's line.
				sentinel := filepath.Join(h.Dir, "sentinel")
				os.Remove(sentinel)
				OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "text": "echo ok > " + sentinel, "keys": []string{"Enter"}}), "ok")
				WaitFor(t, "the shell to run the next line", func() bool {
					_, err := os.Stat(sentinel)
					return err == nil
				})
				if entries, _ := os.ReadDir(work); len(entries) > 0 {
					t.Errorf("%q: the command line made %v in the pane's folder", args, entries)
				}
				got, err := os.ReadFile(out)
				if want := strings.Join(args, "\x00") + "\x00"; err != nil || string(got) != want {
					t.Errorf("the agent got %q (%v), want %q\npane:\n%s", strings.Split(string(got), "\x00"), err, args, s.Read(t, pane, "recent", 30).Text)
				}
			}
		})
	}
	if ran == 0 {
		t.Skip("no shell installed")
	}
}

// A shell whose quoting herdr does not know gets plain words only: a
// hostile argument is refused with invalid_agent_argument, nothing is
// typed, and the name stays free for a plain start.
func TestHardening_AgentStartRefusesWhatAnUnknownShellCannotTake(t *testing.T) {
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	shell := filepath.Join(bin, "mysh") // /bin/sh under a name herdr does not know
	if err := os.Symlink("/bin/sh", shell); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(h.Dir, "argv")
	fake := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > " + out + "\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte("[terminal]\ndefault_shell = \""+shell+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "qunknown")
	pane := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}, "focus": true}).RootPane.PaneID
	s.WaitPrompt(t, pane)
	msg := Fail(t, s.Call("agent.start", map[string]any{"name": "a1", "kind": "claude", "pane_id": pane, "args": []string{"it's"}}), protocol.CodeInvalidAgentArgument)
	if !strings.Contains(msg, "mysh") {
		t.Errorf("message %q does not name the shell", msg)
	}
	if strings.Contains(s.Read(t, pane, "visible", 0).Text, "claude") {
		t.Error("the refused line was typed")
	}
	OK[protocol.AgentStarted](t, s.Call("agent.start", map[string]any{"name": "a1", "kind": "claude", "pane_id": pane, "args": []string{"--model", "opus"}}), "agent_started")
	WaitFor(t, "the plain start to run", func() bool {
		got, err := os.ReadFile(out)
		return err == nil && string(got) == "--model\x00opus\x00"
	})
}
