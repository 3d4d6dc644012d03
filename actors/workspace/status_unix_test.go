//go:build unix

package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// readStatus reads the branch, ahead/behind its upstream and whether the
// work tree has changes; outside a repository it says so.
func TestReadStatus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if st := readStatus("w1", t.TempDir()); st.Repo || st.Branch != "" {
		t.Errorf("outside a repository: %+v", st)
	}
	up := t.TempDir()
	run(up, "init", "-q", "-b", "main")
	run(up, "commit", "-q", "--allow-empty", "-m", "one")
	clone := filepath.Join(t.TempDir(), "c")
	run(up, "clone", "-q", up, clone)
	run(clone, "commit", "-q", "--allow-empty", "-m", "two")
	run(clone, "commit", "-q", "--allow-empty", "-m", "three")
	run(up, "commit", "-q", "--allow-empty", "-m", "four")
	run(clone, "fetch", "-q")
	st := readStatus("w1", clone)
	if !st.Repo || st.Branch != "main" || st.Ahead != 2 || st.Behind != 1 || st.Dirty {
		t.Errorf("clean clone: %+v", st)
	}
	if err := os.WriteFile(filepath.Join(clone, "new.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st := readStatus("w1", clone); !st.Dirty {
		t.Errorf("an untracked file is not dirty: %+v", st)
	}
}
