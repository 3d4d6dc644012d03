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
