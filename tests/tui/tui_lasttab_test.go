package tui

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_ClosingTheLastTabAsksFirst: prefix X on a workspace's only tab
// asks before closing it (and the workspace with it), as Herdr 0.9.2's
// client does; n keeps both, y closes them.
func TestTUI_ClosingTheLastTabAsksFirst(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir(), "label": "front"})
	s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir(), "label": "spare", "focus": false})
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type(TuiPrefix + "X")
	c.WaitText(t, "close the last tab of front and the workspace with it? y/n")
	c.Type("n")
	c.WaitScreen(t, "the question gone", func(screen string) bool { return !strings.Contains(screen, "close the last tab") })
	if n := len(SessionSnapshot(t, s).Workspaces); n != 2 {
		t.Fatalf("after n: %d workspaces, want 2", n)
	}
	c.Type(TuiPrefix + "X")
	c.WaitText(t, "close the last tab of front")
	c.Type("y")
	WaitFor(t, "the workspace closed with its last tab", func() bool {
		ws := SessionSnapshot(t, s).Workspaces
		return len(ws) == 1 && ws[0].Label == "spare"
	})
}
