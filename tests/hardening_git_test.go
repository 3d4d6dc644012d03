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
