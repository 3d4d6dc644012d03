//go:build unix

package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// foreignRepo makes a repository with one commit owned by another user
// (nobody), which git refuses to its owner-checking callers.
func foreignRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", dir},
		{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "first"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if out, err := exec.Command("chown", "-R", "65534:65534", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot give a repository to another user (needs root): %v %s", err, out)
	}
	return dir
}

// Without trust a repository owned by another user answers
// repository_not_trusted naming the flag; with it, git works on that
// repository for the request, and nothing is written to git's config.
func TestTrust_ForeignRepository(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := foreignRepo(t)

	_, err := RepoOf(nil, repo)
	if e := protocol.AsError(err); e == nil || e.Code != protocol.CodeRepositoryNotTrusted || !strings.Contains(e.Message, "trust_repository") || !strings.Contains(e.Message, repo) {
		t.Fatalf("untrusted: %v", err)
	}
	if _, err := ListWorktrees(&Trust{}, Repo{Root: repo}); protocol.AsError(err).Code != protocol.CodeRepositoryNotTrusted {
		t.Fatalf("untrusted list: %v", err)
	}

	trust := &Trust{Allowed: true}
	r, err := RepoOf(trust, repo)
	if err != nil || r.Root != repo {
		t.Fatalf("trusted: %+v %v", r, err)
	}
	checkout := filepath.Join(t.TempDir(), "wt")
	if err := CreateWorktree(trust, r, checkout, "side", ""); err != nil {
		t.Fatal(err)
	}
	trees, err := ListWorktrees(trust, r)
	if err != nil || len(trees) != 2 {
		t.Fatalf("trees %+v %v", trees, err)
	}
	if err := RemoveWorktree(trust, r, trees[1].Path, false); err != nil {
		t.Fatal(err)
	}
	if len(trust.safe) != 1 || trust.safe[0] != repo {
		t.Fatalf("trusted %q, want only %s", trust.safe, repo)
	}
	for _, f := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Fatalf("%s written: %v", f, err)
		}
	}
	// Trust lasts for its request only: a new one is refused again.
	if _, err := RepoOf(&Trust{}, repo); protocol.AsError(err).Code != protocol.CodeRepositoryNotTrusted {
		t.Fatalf("a later untrusted request: %v", err)
	}
}
