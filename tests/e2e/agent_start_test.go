//go:build unix

package e2e

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// An agent whose program the shell cannot find is told as such by agent
// start, in the shell's words, well before its timeout: the pane's shell
// gets the terminal back and says "not found", and the launch ends there.
func TestAgentStart_MissingProgramSaysWhy(t *testing.T) {
	s := StartServer(t)
	bin := Mkdir(t, s, "empty-bin") // no claude on the pane's PATH
	pane := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": map[string]string{"PATH": bin + ":/usr/bin:/bin"}}).RootPane.PaneID
	s.WaitPrompt(t, pane)
	// A timeout far beyond the test's: only the shell's complaint ends it.
	out, errOut, code := s.CLI("agent", "start", "reviewer", "--kind", "claude", "--pane", pane, "--timeout", "300000")
	if code != 1 || out != "" || !strings.Contains(errOut, `"code":"agent_start_failed"`) || !strings.Contains(errOut, "not found") || !strings.Contains(errOut, "claude") {
		t.Fatalf("agent start of a missing program: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// The name is free, agent.get says why, and the pane takes a new start.
	msg := Fail(t, s.Call("agent.get", map[string]any{"target": "reviewer"}), "agent_not_found")
	if !strings.Contains(msg, "did not start") || !strings.Contains(msg, "not found") {
		t.Fatalf("agent.get of the failed name: %q", msg)
	}
	if !strings.Contains(s.Output()+s.Home.ServerLog(s.Name), "agent start failed") {
		t.Fatal("the failed start is not in the server's log at warn")
	}
}
