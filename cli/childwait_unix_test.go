//go:build unix

package cli

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A build step that ends leaving a process holding its output (a daemon
// it started) does not hang plugin install: the output so far comes back
// with exec.ErrWaitDelay, which says why.
func TestCombinedOutputDoesNotWaitForAGrandchild(t *testing.T) {
	out, err := combinedOutput(exec.Command("sh", "-c", "sleep 600 & echo $!; exit 0"))
	if pid, perr := strconv.Atoi(strings.TrimSpace(string(out))); perr == nil {
		defer syscall.Kill(pid, syscall.SIGKILL)
	}
	if !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("combinedOutput = %q, %v; want the output and exec.ErrWaitDelay", out, err)
	}
}
