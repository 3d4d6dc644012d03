//go:build unix

package saved

import (
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// A child that ends leaving a grandchild holding its stdout and stderr
// does not keep its reader or its wait: the output ends after the child,
// and the wait says why (exec.ErrWaitDelay).
func TestStartPipeEndsWhenTheChildEnds(t *testing.T) {
	tail := &lastWriter{}
	c, err := StartPipe([]string{"sh", "-c", "echo hello; echo on-stderr >&2; sleep 600 & echo $! >&2; exit 0"}, tail)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(c.Out)
	if err != nil || string(out) != "hello\n" {
		t.Fatalf("output = %q, %v; want hello and its end", out, err)
	}
	if err := c.Wait(); !errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("Wait = %v, want exec.ErrWaitDelay (a grandchild held the pipes)", err)
	}
	if c.ExitCode() != 0 {
		t.Fatalf("exit code %d, want 0", c.ExitCode())
	}
	c.Stop(0) // after the end: returns at once, twice is harmless
	c.Stop(0)
	killLast(tail.String())
}

// lastWriter keeps what the child wrote on stderr (exec's goroutine writes).
type lastWriter struct {
	mu sync.Mutex
	b  []byte
}

func (w *lastWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *lastWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.b)
}

// killLast ends the grandchild whose pid is the last word of s.
func killLast(s string) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return
	}
	if pid, err := strconv.Atoi(words[len(words)-1]); err == nil && pid > 0 {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
