//go:build unix

package pane

import (
	"syscall"
	"testing"
)

// A child registering with the reaper checks only itself: with 1,000
// children registered, the next one costs one wait4, not 1,001 (a restore
// of n panes made n² of them, most of its time at 3,000 panes).
func TestReaper_ANewChildChecksOnlyItself(t *testing.T) {
	r := newReaper()
	r.once.Do(func() {}) // no SIGCHLD sweep: this test's calls are its own
	calls := map[int]int{}
	r.wait4 = func(pid int, _ *syscall.WaitStatus) (int, error) {
		calls[pid]++
		return 0, nil // still running
	}
	const running = 1000
	base := 1 << 22 // pids no test process has
	for pid := base; pid < base+running; pid++ {
		r.exitOf(pid)
	}
	clear(calls)
	r.exitOf(base + running)
	if len(calls) != 1 || calls[base+running] != 1 {
		t.Fatalf("registering one child made wait4 calls for %d pids (%d for itself)", len(calls), calls[base+running])
	}
	// A SIGCHLD still sweeps every registered child, and a child that has
	// exited is collected and told once.
	clear(calls)
	exited := base + 7
	r.wait4 = func(pid int, ws *syscall.WaitStatus) (int, error) {
		calls[pid]++
		if pid == exited {
			*ws = 3 << 8 // exited with code 3
			return pid, nil
		}
		return 0, nil
	}
	note := r.waiting[exited]
	r.reapAll()
	if len(calls) != running+1 {
		t.Fatalf("a sweep checked %d of %d children", len(calls), running+1)
	}
	if code := note.wait(); code != 3 {
		t.Fatalf("exit code %d, want 3", code)
	}
	if _, still := r.waiting[exited]; still {
		t.Fatal("a collected child is still waited for")
	}
}
