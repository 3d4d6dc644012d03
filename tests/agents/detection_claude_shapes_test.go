package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fakeClaudeStaleTitle sets a spinner title and shows Claude's working
// screen; on a line from the terminal it shows the boxed permission prompt
// (testdata/screens/claude/blocked_boxed.txt) and leaves the title as it
// was, as a Claude Code that never cleared its spinner would.
const fakeClaudeStaleTitle = `#!/bin/sh
stty -echo
screens='%s'
printf '\033]2;\342\240\202 Fix the build\007'
printf '\033[2J\033[H%%s' "$(cat "$screens/working.txt")"
read cue || exit 0
printf '\033[2J\033[H%%s' "$(cat "$screens/blocked_boxed.txt")"
while read cue; do :; done
`

// TestDetection_ClaudeBoxedPromptUnderAStaleTitle: in a real pane, the
// boxed "│ ❯ 1. Yes │" prompt under a spinner title reads as blocked.
func TestDetection_ClaudeBoxedPromptUnderAStaleTitle(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	bin := Mkdir(t, s, "bin")
	screens := filepath.Join(AgentScreens(t), "claude")
	if strings.Contains(screens, "'") {
		t.Skipf("module path %q cannot be quoted for sh", screens)
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fmt.Sprintf(fakeClaudeStaleTitle, screens)), 0o755); err != nil {
		t.Fatal(err)
	}
	created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}})
	pane := created.RootPane.PaneID
	s.Run(t, pane, "claude")

	status := func() protocol.AgentStatus {
		return OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": pane}), "pane_info").Pane.AgentStatus
	}
	if !Eventually(func() bool { return status() == protocol.StatusWorking }) {
		t.Fatalf("status %s before the prompt, want working; screen:\n%s", status(), s.Read(t, pane, "visible", 0).Text)
	}
	OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "keys": []string{"Enter"}}), "ok")
	if !Eventually(func() bool { return status() == protocol.StatusBlocked }) {
		e := OK[protocol.AgentExplainResult](t, s.CallT(t, "agent.explain", map[string]any{"target": pane}), "agent_explain").Explain
		t.Fatalf("status %s under the boxed prompt, want blocked (explain: state %q rule %+v); screen:\n%s", status(), e.State, e.MatchedRule, s.Read(t, pane, "visible", 0).Text)
	}
	e := OK[protocol.AgentExplainResult](t, s.CallT(t, "agent.explain", map[string]any{"target": pane}), "agent_explain").Explain
	if e.MatchedRule == nil || e.MatchedRule.ID != "bash_permission_prompt" {
		t.Errorf("blocked by %+v, want bash_permission_prompt", e.MatchedRule)
	}
}
