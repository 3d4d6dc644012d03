package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_FocusFromTheCLIMovesTheClient: `herdr agent focus` and
// `herdr pane move --focus`, run from outside, move the attached
// interactive client too (Herdr 0.9.1): it shows the focused pane's
// workspace and tab at once, without a key pressed in it.
func TestTUI_FocusFromTheCLIMovesTheClient(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "first")

	// Two more workspaces the client does not show, each with a mark on its screen.
	two := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir(), "focus": false}).RootPane.PaneID
	three := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir(), "focus": false}).RootPane.PaneID
	for p, mark := range map[string]string{two: "agentpane", three: "movedpane"} {
		s.WaitPrompt(t, p)
		s.Run(t, p, "echo "+mark+"-$((6*7))")
		s.WaitLine(t, p, mark+"-42")
	}
	c.Settle(t, 300*time.Millisecond)
	if screen := c.Screen(); strings.Contains(screen, "agentpane-42") || strings.Contains(screen, "movedpane-42") {
		t.Fatalf("the client shows an unfocused workspace already:\n%s", screen)
	}

	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": two, "source": "test", "agent": "mybot", "state": "idle"}), "ok")
	if out, errOut, code := s.CLI("agent", "focus", two); code != 0 {
		t.Fatalf("herdr agent focus: exit %d, %s %s", code, out, errOut)
	}
	c.WaitText(t, "agentpane-42")

	if out, errOut, code := s.CLI("pane", "move", three, "--new-tab", "--workspace", "w1", "--focus"); code != 0 {
		t.Fatalf("herdr pane move --focus: exit %d, %s %s", code, out, errOut)
	}
	screen := c.WaitText(t, "movedpane-42")
	if strings.Contains(screen, "agentpane-42") {
		t.Fatalf("the client still shows the agent's workspace after the move:\n%s", screen)
	}
}
