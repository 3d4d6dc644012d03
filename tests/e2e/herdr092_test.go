package e2e

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// pane.clear (Herdr 0.9.2) empties a pane's screen and scrollback and
// answers ok; its shell runs on and draws below. `herdr pane clear`
// prints Herdr's answer line; an unknown pane is pane_not_found.
func TestE2E_PaneClear(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	s.Run(t, "w1:p1", "seq 1000 1100; echo before-$((1+1))")
	s.WaitLine(t, "w1:p1", "before-2")
	out, errOut, code := s.CLI("pane", "clear", "w1:p1")
	if code != 0 || strings.TrimSpace(out) != `{"id":"cli:pane:clear","result":{"type":"ok"}}` {
		t.Fatalf("pane clear: exit %d, %q %q; want Herdr's ok line", code, out, errOut)
	}
	for _, src := range []string{"visible", "recent"} {
		if text := s.Read(t, "w1:p1", src, 1000).Text; strings.Contains(text, "before-2") || strings.Contains(text, "1050") {
			t.Fatalf("%s text after pane.clear still holds the old output: %q", src, text)
		}
	}
	if _, errOut, code := s.CLI("pane", "run", "w1:p1", "echo after-$((2+2))"); code != 0 { // no prompt shows until the shell draws again
		t.Fatalf("pane run: exit %d %q", code, errOut)
	}
	s.WaitLine(t, "w1:p1", "after-4")
	Fail(t, s.Call("pane.clear", map[string]any{"pane_id": "w1:p9"}), protocol.CodePaneNotFound)
	Fail(t, s.Call("pane.clear", map[string]any{}), protocol.CodeInvalidParams)
}
