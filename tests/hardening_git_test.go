//go:build unix

package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
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
	gitRepo(t, repo)
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
			t.Errorf("worktree.create %q: %+v %s, want %s", prm, resp.Error, clip(resp.Result), protocol.CodeInvalidParams)
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
		cmd := exec.Command(herdrBin, args...)
		cmd.Env = env
		c := startTUI(t, cmd)
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
