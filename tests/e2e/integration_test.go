package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestIntegration_ClaudeHookReportsSession installs the Claude integration
// through the socket into the test home, runs the installed hook inside a
// real pane with a SessionStart payload on stdin, as Claude Code does, and
// sees the pane report the Claude session; then checks the CLI's status and
// uninstall.
func TestIntegration_ClaudeHookReportsSession(t *testing.T) {
	for _, tool := range []string{"python3", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the Claude hook needs it", tool)
		}
	}
	h := NewHome(t)
	claudeDir := filepath.Join(HomeDir(t, h), ".claude")
	if err := os.MkdirAll(claudeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	userSettings := `{"model":"opus","hooks":{"SessionStart":[{"matcher":"*","hooks":[{"type":"command","command":"echo user-hook"}]}]}}`
	if err := os.WriteFile(filepath.Join(claudeDir, "settings.json"), []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "int")

	Fail(t, s.Call("integration.install", map[string]any{"target": "vim"}), protocol.CodeInvalidParams)
	res := OK[protocol.IntegrationInstalled](t, s.CallT(t, "integration.install", map[string]any{"target": "claude"}), "integration_install")
	script := filepath.Join(claudeDir, "hooks", "herdr-agent-state.sh")
	if res.Target != "claude" || len(res.Details.Messages) == 0 || !strings.Contains(strings.Join(res.Details.Messages, "\n"), script) {
		t.Fatalf("install result %+v", res)
	}
	settings, err := os.ReadFile(filepath.Join(claudeDir, "settings.json"))
	if err != nil || !strings.Contains(string(settings), "echo user-hook") || !strings.Contains(string(settings), script) {
		t.Fatalf("settings.json after install (%v):\n%s", err, settings)
	}

	pane := s.CreateWorkspace(t, nil).RootPane.PaneID
	payload, _ := json.Marshal(map[string]any{
		"session_id":      "5b0c1e2a-claude-session",
		"transcript_path": filepath.Join(claudeDir, "projects", "x", "5b0c1e2a.jsonl"),
		"cwd":             h.Dir,
		"hook_event_name": "SessionStart",
		"source":          "startup",
	})
	input := filepath.Join(h.Dir, "session-start.json")
	if err := os.WriteFile(input, payload, 0o600); err != nil {
		t.Fatal(err)
	}
	// Outside a pane the hook is a no-op that succeeds.
	quiet := exec.Command("bash", script, "session")
	quiet.Env = []string{"PATH=" + os.Getenv("PATH")}
	quiet.Stdin = strings.NewReader(string(payload))
	if out, err := quiet.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("hook outside a pane: %v %q", err, out)
	}

	s.Run(t, pane, "bash '"+script+"' session < '"+input+"'; echo hook-exit=$?")
	s.WaitLine(t, pane, "hook-exit=0")
	var got *protocol.AgentSessionInfo
	WaitFor(t, "pane.get to show the Claude session", func() bool {
		got = OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": pane}), "pane_info").Pane.AgentSession
		return got != nil
	})
	want := protocol.AgentSessionInfo{Source: "herdr:claude", Agent: "claude", Kind: "id", Value: "5b0c1e2a-claude-session"}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("agent_session = %+v, want %+v", *got, want)
	}

	out, _, code := s.CLI("integration", "status", "claude")
	if code != 0 || strings.TrimSpace(out) != "claude: current (v7) ("+script+")" {
		t.Errorf("status: %d %q", code, out)
	}
	out, errOut, code := s.CLI("integration", "uninstall", "claude")
	if code != 0 || !strings.Contains(out, "removed "+script) {
		t.Errorf("uninstall: %d %q %q", code, out, errOut)
	}
	out, _, _ = s.CLI("integration", "status", "claude")
	if strings.TrimSpace(out) != "claude: not installed" {
		t.Errorf("status after uninstall: %q", out)
	}
	settings, _ = os.ReadFile(filepath.Join(claudeDir, "settings.json"))
	if !strings.Contains(string(settings), "echo user-hook") || strings.Contains(string(settings), "herdr-agent-state") {
		t.Errorf("settings.json after uninstall:\n%s", settings)
	}
	if _, errOut, code := s.CLI("integration", "install", "vim"); code != 2 || !strings.Contains(errOut, "vim") {
		t.Errorf("install vim: %d %q", code, errOut)
	}
}
