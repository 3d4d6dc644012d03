//go:build unix

package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// A command that hangs is killed at the timeout with everything it
// started; its output is kept up to the cap.
func TestRun_TimeoutKillsTheGroupAndOutputIsCapped(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	start := time.Now()
	o := Run(Job{Argv: []string{"sh", "-c", "sleep 300 & echo $! > " + pidFile + "; wait"}, Dir: dir, Env: os.Environ()}, 300*time.Millisecond)
	if o.Err == "" || !strings.Contains(o.Err, "timeout") || o.ExitCode != nil || time.Since(start) > 5*time.Second {
		t.Fatalf("outcome %+v after %v", o, time.Since(start))
	}
	b, _ := os.ReadFile(pidFile)
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err != nil || pid <= 1 {
		t.Fatalf("child pid %q", b)
	}
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the hung command's child survived the kill")
		}
		time.Sleep(10 * time.Millisecond) // waiting for the kernel to reap it
	}
	big := Run(Job{Argv: []string{"sh", "-c", "head -c 200000 /dev/zero | tr '\\0' x"}, Dir: dir, Env: os.Environ()}, 10*time.Second)
	if len(big.Stdout) > maxOutput+100 || !strings.HasSuffix(big.Stdout, "[output truncated at 64 KiB]") {
		t.Fatalf("stdout kept %d bytes", len(big.Stdout))
	}
}

// alive reports whether pid runs: a zombie (killed, not reaped yet by
// whoever inherited it) does not.
func alive(pid int) bool {
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			return false
		}
	}
	return syscall.Kill(pid, 0) == nil
}

// gone waits for pid to be gone, failing t if it lives on.
func gone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) outlived its run", what, pid)
		}
		time.Sleep(10 * time.Millisecond) // waiting for the kernel to reap it
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		var pid int
		if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err == nil && pid > 1 {
			return pid
		}
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

// A command that exits leaving a child in the background, holding its
// output: the run ends with the command, with its output and exit code,
// and the child is killed then, not left to live on.
func TestRun_LeftoversAreKilledWhenTheCommandExits(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	o := Run(Job{Argv: []string{"sh", "-c", "sleep 7301 & echo $! > " + pidFile + "; echo started"}, Dir: dir, Env: os.Environ()}, time.Minute)
	if o.Err != "" || o.ExitCode == nil || *o.ExitCode != 0 || o.Stdout != "started\n" {
		t.Fatalf("outcome %+v", o)
	}
	gone(t, readPid(t, pidFile), "the background child")
}

// Kill ends a running command with its group, saying why; a command
// killed before it starts never starts.
func TestCommand_Kill(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	c := NewCommand(Job{Argv: []string{"sh", "-c", "sleep 7301 & echo $! > " + pidFile + "; wait"}, Dir: dir, Env: os.Environ()}, time.Hour)
	done := make(chan Outcome)
	go func() { done <- c.Run() }()
	child := readPid(t, pidFile)
	c.Kill("the server stopped")
	if o := <-done; o.Err != "the server stopped" || o.ExitCode != nil {
		t.Fatalf("outcome %+v", o)
	}
	gone(t, child, "the killed command's child")

	never := filepath.Join(dir, "never")
	c = NewCommand(Job{Argv: []string{"touch", never}, Dir: dir, Env: os.Environ()}, time.Hour)
	c.Kill("the server stopped")
	if o := c.Run(); o.Err != "the server stopped" {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(never); !os.IsNotExist(err) {
		t.Fatalf("a command killed before it started ran: %v", err)
	}
}

// A manifest or registry that is a device or a FIFO is refused at once,
// never read or waited on; so is an oversized manifest.
func TestFiles_NotRegularRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero", "herdr-plugin.toml")
	os.MkdirAll(filepath.Dir(zero), 0o700)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, make([]byte, MaxManifestBytes+1), 0o600)
	for _, path := range []string{fifo, filepath.Dir(zero), zero, big} {
		_, err := LoadManifest(path)
		if e := protocol.AsError(err); e.Code != protocol.CodePluginManifestRead || !strings.Contains(e.Message, path) {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := OpenRegistry(fifo); protocol.AsError(err).Code != protocol.CodePluginRegistryLoad || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("registry FIFO: %v", err)
	}
}
