package keeper

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The session file is the server's own: a symlink planted at its path
// is replaced by the write, and whatever it pointed at is left alone,
// including a target that does not exist yet (no folder is made for it).
func TestWriteSessionFile_ReplacesALinkNeverItsTarget(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{victim, filepath.Join(dir, "elsewhere", "session.json")} {
		path := filepath.Join(state, "session.json")
		os.Remove(path)
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
		if err := WriteSessionFile(path, []byte("saved\n")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Fatalf("the session file is not a private regular file: %v %v", fi.Mode(), err)
		}
		if got, _ := os.ReadFile(path); string(got) != "saved\n" {
			t.Fatalf("session file holds %q", got)
		}
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep\n" {
		t.Fatalf("the link's target was written: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); !os.IsNotExist(err) {
		t.Fatalf("a folder was made for a dangling link's target: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(state, ".*tmp*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// The session file is not written in a folder another user could tamper
// with: one whose parent belongs to someone else (root only: it takes a
// chown to another user).
func TestWriteSessionFile_RefusesAFolderUnderAnotherUsers(t *testing.T) {
	if os.Getuid() != 0 || runtime.GOOS == "windows" {
		t.Skip("needs root to give a folder to another user")
	}
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs")
	state := filepath.Join(theirs, "herdr")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	err := WriteSessionFile(filepath.Join(state, "session.json"), []byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), "owned by uid 12345") {
		t.Fatalf("WriteSessionFile under another user's folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(state, "session.json")); !os.IsNotExist(err) {
		t.Fatal("the file was written")
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

// A session file that is a link to /dev/zero, a FIFO, a link to a regular
// file or a file over the bound is never read into memory or waited on:
// it is moved aside at once (a link as a link, its target untouched) and
// reported.
func TestReadSessionFile_RefusesWhatIsNotAFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs and /dev/zero are Unix's")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.json")
	os.WriteFile(victim, []byte(`{"version":3,"workspaces":[]}`), 0o600)
	for name, create := range map[string]func(path string) error{
		"/dev/zero": func(path string) error { return os.Symlink("/dev/zero", path) },
		"fifo":      mkfifo,
		"link":      func(path string) error { return os.Symlink(victim, path) },
		"directory": func(path string) error { return os.Mkdir(path, 0o700) },
		"too big":   func(path string) error { return os.WriteFile(path, nil, 0o600) },
	} {
		t.Run(strings.ReplaceAll(name, "/", ""), func(t *testing.T) {
			sub := t.TempDir()
			path := filepath.Join(sub, "session.json")
			if err := create(path); err != nil {
				t.Fatal(err)
			}
			if name == "too big" {
				if err := os.Truncate(path, MaxSessionFileBytes+1); err != nil {
					t.Fatal(err)
				}
			}
			type result struct {
				problem string
				err     error
			}
			done := make(chan result, 1)
			go func() {
				s, problem, err := ReadSessionFile(path)
				if s != nil {
					problem = "restored"
				}
				done <- result{problem, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("ReadSessionFile is stuck")
			}
			if r.err != nil || !strings.Contains(r.problem, "moved aside") {
				t.Fatalf("problem %q, err %v", r.problem, r.err)
			}
			if _, err := os.Lstat(path); !os.IsNotExist(err) {
				t.Fatal("still in place, to be saved over")
			}
			if aside, _ := filepath.Glob(path + ".bad-*"); len(aside) != 1 {
				t.Fatalf("aside: %v", aside)
			}
		})
	}
	if got, _ := os.ReadFile(victim); string(got) != `{"version":3,"workspaces":[]}` {
		t.Fatalf("the link's target changed: %q", got)
	}
}

// When the restore left something out, the first save keeps the original
// file aside (once, with its bytes) before it replaces it; a clean restore
// keeps nothing aside.
func TestFileWriter_KeepsTheOriginalAsideOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session.json")
	original := []byte(`{"version":3,"workspaces":["what was not restored"]}`)
	os.WriteFile(path, original, 0o600)
	var logged bytes.Buffer
	w := newFileWriter(path, slog.New(slog.NewTextHandler(&logged, nil)))
	w.keepOriginal.Store(true)
	w.latest.Hand([]byte(`"first"`))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) { // poll interval
		if got, _ := os.ReadFile(path); string(got) == "\"first\"\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first save did not land")
		}
	}
	w.latest.Hand([]byte(`"second"`)) // the second save keeps nothing aside
	if !w.latest.Close(5 * time.Second) {
		t.Fatal("writer stuck")
	}
	aside, _ := filepath.Glob(path + ".bad-*")
	if len(aside) != 1 {
		t.Fatalf("aside copies: %v", aside)
	}
	if got, _ := os.ReadFile(aside[0]); !bytes.Equal(got, original) {
		t.Fatalf("the aside copy holds %q", got)
	}
	if fi, _ := os.Stat(aside[0]); fi.Mode().Perm() != 0o600 {
		t.Fatalf("aside copy mode %v", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(path); string(got) != "\"second\"\n" {
		t.Fatalf("session file holds %q", got)
	}
	if !strings.Contains(logged.String(), aside[0]) {
		t.Fatalf("the aside copy is not in the log:\n%s", logged.String())
	}

	clean := filepath.Join(t.TempDir(), "session.json")
	os.WriteFile(clean, original, 0o600)
	w = newFileWriter(clean, slog.New(slog.NewTextHandler(io.Discard, nil)))
	w.latest.Hand([]byte(`"saved"`))
	w.latest.Close(5 * time.Second)
	if aside, _ := filepath.Glob(clean + ".bad-*"); len(aside) != 0 {
		t.Fatalf("a clean restore kept %v aside", aside)
	}
}
