package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlinked session file stays a link: the write lands on its target,
// including a target that does not exist yet.
func TestWriteSessionFile_FollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "session.json")
	link := filepath.Join(dir, "config", "session.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"first\n", "second\n"} {
		if err := WriteSessionFile(link, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v", err)
		}
		if got, _ := os.ReadFile(target); string(got) != body {
			t.Fatalf("target holds %q, want %q", got, body)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*", "*.tmp")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Fatalf("session file mode %v, want 0600", fi.Mode().Perm())
	}
}

// A file that cannot be used is moved aside with its content intact and
// the reason reported; a missing file is not a problem.
func TestReadSessionFile_MovesBadFilesAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session.json")
	if s, problem, err := ReadSessionFile(path); s != nil || problem != "" || err != nil {
		t.Fatalf("missing file: %v %q %v", s, problem, err)
	}
	os.WriteFile(path, []byte(`{"version":99}`), 0o600)
	s, problem, err := ReadSessionFile(path)
	if s != nil || err != nil || !strings.Contains(problem, "newer version") || !strings.Contains(problem, "moved aside") {
		t.Fatalf("newer file: %v %q %v", s, problem, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("the bad file is still in place, to be overwritten")
	}
}
