package herdr095

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_RestoreErrorOnPaneInfo: after a restart, a pane whose
// saved folder was removed, and one whose agent's resume command cannot
// run, are kept with a shell, and pane.get, pane.list and the snapshot
// say why in restore_error (Herdr 0.9.2); a pane restored as saved has no
// restore_error at all.
func TestHerdr095_RestoreErrorOnPaneInfo(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	proj := filepath.Join(h.Dir, "proj")
	gone := filepath.Join(proj, "gone")
	if err := os.MkdirAll(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "restore")
	root := s.CreateWorkspace(t, map[string]any{"cwd": proj}).RootPane.PaneID
	away := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": root, "direction": "right"}), "pane_info").Pane.PaneID
	agent := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": root, "direction": "down"}), "pane_info").Pane.PaneID
	s.WaitPrompt(t, away)
	s.Run(t, away, "cd "+ShellQuoted(gone))
	WaitFor(t, "the pane seen in the folder to be removed", func() bool {
		p := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": away}), "pane_info").Pane
		return p.ForegroundCwd != nil && *p.ForegroundCwd == gone
	})
	s.WaitPrompt(t, agent)
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": agent, "source": "sandbox-runner", "agent": "claude",
		"state": "working", "resume_argv": []string{"herdr-test-no-such-agent", "--resume", "s1"}}), "ok")
	s.Stop()
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}

	s = h.Start(t, "restore")
	s.WaitPrompt(t, away)
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 100, "rows": 30}), "ok") // a client: the resume is typed
	wantAway := `"restore_error":"the saved working directory ` + gone + ` no longer exists; the shell started in ` + proj + `"`
	get := func(p string) string {
		return wire(t, s, `{"id":"g","method":"pane.get","params":{"pane_id":"`+p+`"}}`)
	}
	if got := get(away); !strings.Contains(got, wantAway) {
		t.Errorf("pane.get of the pane whose folder is gone:\n got %s\nwant it to hold %s", got, wantAway)
	}
	if got := get(root); strings.Contains(got, "restore_error") {
		t.Errorf("pane.get of a pane restored as saved: %s; want no restore_error", got)
	}
	var got string
	WaitFor(t, "the failed resume in restore_error", func() bool {
		got = get(agent)
		return strings.Contains(got, `"restore_error":"cannot resume claude: `)
	})
	if !strings.Contains(got, "herdr-test-no-such-agent") || !strings.Contains(got, "not found") {
		t.Errorf("pane.get of the pane whose agent did not resume: %s; want the shell's words naming the command", got)
	}
	for _, line := range []string{`{"id":"l","method":"pane.list","params":{}}`, `{"id":"s","method":"session.snapshot","params":{}}`} {
		if got := wire(t, s, line); !strings.Contains(got, wantAway) || !strings.Contains(got, `"restore_error":"cannot resume claude: `) {
			t.Errorf("%s: %s\nwant both restore errors", line, got)
		}
	}
	// Both panes run a shell.
	s.Run(t, away, "echo alive-$((6*7))")
	s.WaitLine(t, away, "alive-42")
}
