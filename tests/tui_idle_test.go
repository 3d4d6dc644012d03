package tests

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// contextSwitches sums the context switches of every thread of pid, from
// /proc; ok is false where there is no /proc.
func contextSwitches(pid int) (n int, ok bool) {
	files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, found := strings.Cut(l, ":"); found && strings.HasSuffix(k, "voluntary_ctxt_switches") {
				x, _ := strconv.Atoi(strings.TrimSpace(v))
				n += x
			}
		}
	}
	return n, len(files) > 0
}

// An attached client with nothing changing sleeps: no ticker wakes it
// (the figure is logged; the bound is far above noise and far below a
// ticking renderer, which made hundreds of switches a second).
func TestTUI_IdleClientSleeps(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "idle")
	c := Attach(t, h, "idle", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return framedPanes(s) == 1 })
	shellReady(t, c, "ready")
	c.Settle(t, 500*time.Millisecond)
	before, ok := contextSwitches(c.cmd.Process.Pid)
	if !ok {
		t.Skip("no /proc to count context switches")
	}
	const window = 3 * time.Second
	time.Sleep(window) // the measurement window itself
	after, _ := contextSwitches(c.cmd.Process.Pid)
	t.Logf("idle attached client: %d context switches in %v", after-before, window)
	if n := after - before; n > 15 {
		t.Errorf("an idle client woke %d times in %v; nothing changed, so it should sleep", n, window)
	}
}
