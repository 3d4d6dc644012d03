package tuinav

import (
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// An attached client with nothing changing sleeps: no ticker wakes it
// (the figure is logged; the bound is far above noise and far below a
// ticking renderer, which made hundreds of switches a second).
func TestTUI_IdleClientSleeps(t *testing.T) {
	h := NewHome(t)
	h.Start(t, "idle")
	c := Attach(t, h, "idle", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Settle(t, 500*time.Millisecond)
	before, ok := ContextSwitches(c.Cmd.Process.Pid)
	if !ok {
		t.Skip("no /proc to count context switches")
	}
	const window = 3 * time.Second
	time.Sleep(window) // the measurement window itself
	after, _ := ContextSwitches(c.Cmd.Process.Pid)
	t.Logf("idle attached client: %d context switches in %v", after-before, window)
	if n := after - before; n > 15 {
		t.Errorf("an idle client woke %d times in %v; nothing changed, so it should sleep", n, window)
	}
}
