//go:build unix

package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory is only as safe as the directories above it: one under a
// folder another user owns, or under a folder others may write to, is
// refused, naming that folder; a symlink on the way that is ours leads
// to directories that are checked in turn.
func TestSafeDir_ChecksEveryAncestor(t *testing.T) {
	base := t.TempDir()
	deep := filepath.Join(base, "a", "b", "herdr")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := SafeDir(deep); err != nil {
		t.Fatalf("a private tree: %v", err)
	}
	open := filepath.Join(base, "a")
	os.Chmod(open, 0o777)
	if err := SafeDir(deep); err == nil || !strings.Contains(err.Error(), open+": mode 0777") {
		t.Errorf("under a world-writable folder: %v", err)
	}
	os.Chmod(open, 0o777|os.ModeSticky)
	if err := SafeDir(deep); err != nil {
		t.Errorf("under a sticky folder (like /tmp): %v", err)
	}
	os.Chmod(open, 0o700)

	// A link on the way is followed, and where it leads is checked.
	linked := filepath.Join(base, "linked")
	os.Mkdir(linked, 0o700)
	target := filepath.Join(base, "shared", "real")
	os.MkdirAll(filepath.Join(target, "herdr"), 0o700)
	os.Symlink(target, filepath.Join(linked, "via"))
	through := filepath.Join(linked, "via", "herdr")
	if err := SafeDir(through); err != nil {
		t.Errorf("through our own link: %v", err)
	}
	os.Chmod(filepath.Join(base, "shared"), 0o777)
	if err := SafeDir(through); err == nil || !strings.Contains(err.Error(), filepath.Join(base, "shared")) {
		t.Errorf("through a link into a world-writable folder: %v", err)
	}

	if os.Getuid() != 0 {
		t.Skip("the rest needs root to give a folder to another user")
	}
	theirs := filepath.Join(base, "theirs")
	os.MkdirAll(filepath.Join(theirs, "mine", "herdr"), 0o700)
	os.Chown(theirs, 12345, 12345)
	err := SafeDir(filepath.Join(theirs, "mine", "herdr"))
	if err == nil || !strings.Contains(err.Error(), theirs+": owned by uid 12345") {
		t.Errorf("under another user's folder: %v", err)
	}
}

// Dial checks before it sends anything: a missing directory is "not
// running", a directory another user could tamper with is refused with
// ErrUnsafeSocket, even with a live server of ours behind it.
func TestDial_RefusesAnUnsafeDirectory(t *testing.T) {
	base := t.TempDir()
	if _, err := Dial(filepath.Join(base, "gone", "herdr.sock"), time.Second); err == nil || !IsNotRunning(err) {
		t.Fatalf("missing directory: %v, want not running", err)
	}
	dir := filepath.Join(base, "herdr")
	os.Mkdir(dir, 0o700)
	path := filepath.Join(dir, "herdr.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	c, err := Dial(path, time.Second)
	if err != nil {
		t.Fatalf("our own safe socket: %v", err)
	}
	c.Close()
	os.Chmod(base, 0o777)
	defer os.Chmod(base, 0o700)
	_, err = Dial(path, time.Second)
	if !errors.Is(err, ErrUnsafeSocket) || IsNotRunning(err) || !strings.Contains(err.Error(), base) {
		t.Fatalf("under a world-writable folder: %v", err)
	}
}

// A server in a safe directory that runs as another user is refused: its
// uid is named and nothing is written to it.
func TestDial_RefusesAnotherUsersServer(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a server as another user")
	}
	python := "/usr/bin/python3" // a system python any user may run
	if _, err := os.Stat(python); err != nil {
		t.Skip("needs /usr/bin/python3 to listen as another user")
	}
	// In the sticky /tmp, where nobody may make a socket and we trust the
	// folder.
	path := filepath.Join(os.TempDir(), fmt.Sprintf("hdpeer-%d.sock", os.Getpid()))
	os.Remove(path)
	defer os.Remove(path)
	script := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4); print("ready", flush=True)
c,_=s.accept(); c.settimeout(3)
try: data=c.recv(64)
except Exception: data=b""
print("got", repr(data), flush=True)`
	cmd := exec.Command(python, "-c", script, path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("listener: %q", lines.Text())
	}
	_, err = Dial(path, time.Second)
	if !errors.Is(err, ErrUnsafeSocket) || !strings.Contains(err.Error(), "uid 65534") {
		t.Fatalf("another user's server: %v", err)
	}
	if !lines.Scan() || lines.Text() != "got b''" {
		t.Fatalf("the server received %q", lines.Text())
	}
	cmd.Wait()
}

// WriteOwnFile replaces a symlink at its path instead of writing through
// it, and refuses a folder others may write to.
func TestWriteOwnFile(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	dir := filepath.Join(base, "state")
	os.Mkdir(dir, 0o700)
	path := filepath.Join(dir, "web-token")
	os.Symlink(victim, path)
	if err := WriteOwnFile(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Fatalf("written through the link: %q", got)
	}
	if fi, _ := os.Lstat(path); !fi.Mode().IsRegular() {
		t.Fatalf("%s is %v", path, fi.Mode())
	}
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o700)
	os.Chmod(open, 0o777)
	if err := WriteOwnFile(filepath.Join(open, "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("written in a world-writable folder")
	}
}
