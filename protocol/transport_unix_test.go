//go:build unix

package protocol

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The socket is bound 0600 whatever the umask: there is no window in which
// another user could connect before a chmod.
func TestBindPrivateIgnoresTheUmask(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "s.sock")
	l, err := bindPrivate(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Fatalf("socket mode %04o right after bind, want no group/other bits", perm)
	}
}

func TestListenRefusesUnsafeDirectories(t *testing.T) {
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777) // as another user's planted directory would be
	if l, err := Listen(filepath.Join(open, "herdr.sock")); err == nil || !strings.Contains(err.Error(), "unsafe directory") {
		if l != nil {
			l.Close()
		}
		t.Fatalf("Listen in a world-writable directory: %v, want an unsafe-directory error", err)
	}
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := SafeDir(link); err == nil {
		t.Error("a symlinked directory must be refused")
	}
	sticky := filepath.Join(base, "sticky")
	os.Mkdir(sticky, 0o700)
	os.Chmod(sticky, 0o777|os.ModeSticky)
	if err := SafeDir(sticky); err != nil {
		t.Errorf("a sticky shared directory like /tmp is safe: %v", err)
	}
	if os.Getuid() == 0 {
		theirs := filepath.Join(base, "theirs")
		os.Mkdir(theirs, 0o700)
		os.Chown(theirs, 65534, 65534)
		if err := SafeDir(theirs); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("another user's directory: %v", err)
		}
	}
}

func TestAllowedPeer(t *testing.T) {
	for _, tt := range []struct {
		peer, self int
		want       bool
	}{{1000, 1000, true}, {0, 1000, true}, {1001, 1000, false}, {65534, 0, false}} {
		if got := allowedPeer(tt.peer, tt.self); got != tt.want {
			t.Errorf("allowedPeer(%d, %d) = %v", tt.peer, tt.self, got)
		}
	}
}

// Even through a socket made world-accessible, another user's connection
// is closed unanswered while our own is served.
func TestListenRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	// A system python that any user may run (not a per-user shim).
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("needs /usr/bin/python3 to connect as another user")
	}
	dir, err := os.MkdirTemp("", "hp")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "herdr.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	os.Chmod(path, 0o666) // the mode alone no longer protects it
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	script := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.settimeout(3); s.connect(sys.argv[1])
try: print(repr(s.recv(64)))
except Exception as e: print("error", e)`
	cmd := exec.Command(python, "-c", script, path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("connect as nobody: %v: %s", err, out)
	}
	if strings.Contains(string(out), "hello") {
		t.Fatalf("another user was served: %s", out)
	}
	c, err := Dial(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || line != "hello\n" {
		t.Fatalf("our own connection: %q %v", line, err)
	}
}

// A connection Listen's listener accepts names its peer, this process, from
// what Accept already asked the kernel, and is still a Unix socket to the
// interfaces the server asserts (syscall.Conn, CloseWrite).
func TestListen_AcceptedConnKnowsItsPeer(t *testing.T) {
	l, err := Listen(filepath.Join(t.TempDir(), "s.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, ok := ConnPeer(a)
	if !ok || p.PID != os.Getpid() || p.UID != os.Getuid() {
		t.Fatalf("ConnPeer = %+v %v, want pid %d uid %d", p, ok, os.Getpid(), os.Getuid())
	}
	if _, ok := a.(syscall.Conn); !ok {
		t.Fatal("the accepted connection is not a syscall.Conn")
	}
	cw, ok := a.(interface{ CloseWrite() error })
	if !ok || cw.CloseWrite() != nil {
		t.Fatal("the accepted connection cannot half-close")
	}
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("after CloseWrite the client read %d, %v", n, err)
	}
}
