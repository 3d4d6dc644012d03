package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

func TestE2E_AgentCLI(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	p := AgentWorkspace(t, s)
	s.Run(t, p, "claude")
	WaitFor(t, "claude in agent list", func() bool {
		out, _, code := s.CLI("agent", "list")
		return code == 0 && strings.Contains(out, `"agent":"claude"`)
	})

	got := OK[protocol.AgentInfoResult](t, CLIResponse(t, AgentCLI(t, s, "agent", "rename", p, "bob")), "agent_info")
	if got.Agent.Name == nil || *got.Agent.Name != "bob" {
		t.Fatalf("rename: %+v", got.Agent)
	}
	// The CLI refuses a malformed name before any socket use; the API names the code.
	AgentCLIUsage(t, s, "agent", "rename", p, "Bob!")
	Fail(t, s.Call("agent.rename", map[string]any{"target": p, "name": "Bob!"}), "invalid_agent_name")

	prompted := OK[protocol.AgentPrompted](t, CLIResponse(t, AgentCLI(t, s, "agent", "prompt", "bob", "w", "--wait", "--until", "working", "--timeout", "8000")), "agent_prompted")
	if prompted.Agent.AgentStatus != protocol.StatusWorking {
		t.Fatalf("prompt --wait --until working: %s", prompted.Agent.AgentStatus)
	}
	AgentCLIFail(t, s, "timeout", "agent", "wait", "bob", "--until", "blocked", "--timeout", "200")
	if _, _, code := s.CLI("agent", "prompt", "bob", "x", "--until", "idle"); code != 2 {
		t.Fatalf("prompt --until without --wait: exit %d, want 2", code)
	}
	AgentCLI(t, s, "agent", "send-keys", "bob", "b", "Enter")
	waited := OK[protocol.AgentInfoResult](t, CLIResponse(t, AgentCLI(t, s, "agent", "wait", "bob", "--timeout", "8000")), "agent_info")
	if waited.Agent.AgentStatus != protocol.StatusBlocked {
		t.Fatalf("agent wait: %s, want blocked", waited.Agent.AgentStatus)
	}
	if text := AgentCLI(t, s, "agent", "read", "bob", "--source", "visible"); !strings.Contains(text, "Do you want to proceed?") {
		t.Fatalf("agent read: %q", text)
	}
	if text := AgentCLI(t, s, "agent", "explain", "bob", "-v"); !strings.Contains(text, "agent: claude") || !strings.Contains(text, "→ blocked") || !strings.Contains(text, "PREVIEW") {
		t.Fatalf("agent explain:\n%s", text)
	}
	OK[protocol.AgentExplainResult](t, CLIResponse(t, AgentCLI(t, s, "agent", "explain", "bob", "--json")), "agent_explain")
	screen := filepath.Join(s.Home.Dir, "screen.txt")
	os.WriteFile(screen, []byte("* Thinking… (esc to interrupt)\n"), 0o600)
	if text := AgentCLI(t, s, "agent", "explain", "--file", screen, "--agent", "claude"); !strings.Contains(text, "state: working") {
		t.Fatalf("agent explain --file:\n%s", text)
	}

	// Hooks: silent on success.
	for _, args := range [][]string{
		{"pane", "report-agent", p, "--source", "herdr:claude", "--agent", "claude", "--state", "idle", "--agent-session-id", "sess-1"},
		{"pane", "report-metadata", p, "--source", "t", "--title", "Reviewing", "--state-label", "blocked=needs you", "--token", "pr=42"},
		{"workspace", "report-metadata", "w1", "--source", "t", "--token", "ci=green"},
	} {
		if out, errOut, code := s.CLI(args...); code != 0 || out != "" || errOut != "" {
			t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q; want silent success", strings.Join(args, " "), code, out, errOut)
		}
	}
	pane := OK[protocol.PaneInfoResult](t, CLIResponse(t, AgentCLI(t, s, "pane", "get", p)), "pane_info").Pane
	if pane.AgentStatus != protocol.StatusBlocked || pane.Title == nil || *pane.Title != "Reviewing" || pane.StateLabels["blocked"] != "needs you" ||
		pane.Tokens["pr"] != "42" || pane.AgentSession == nil || pane.AgentSession.Value != "sess-1" {
		t.Fatalf("pane after hooks: %+v", pane)
	}
	AgentCLIUsage(t, s, "pane", "report-metadata", p, "--source", "t", "--state-label", "asleep=zz")
	Fail(t, s.Call("pane.report_metadata", map[string]any{"pane_id": p, "source": "t", "state_labels": map[string]string{"asleep": "zz"}}), "invalid_state_label")
	ws := OK[protocol.WorkspaceInfoResult](t, CLIResponse(t, AgentCLI(t, s, "workspace", "get", "w1")), "workspace_info").Workspace
	if ws.Tokens["ci"] != "green" {
		t.Fatalf("workspace tokens: %+v", ws.Tokens)
	}

	AgentCLI(t, s, "agent", "send-keys", "bob", "i", "Enter")
	OK[protocol.WaitMatched](t, CLIResponse(t, AgentCLI(t, s, "wait", "agent-status", p, "--status", "idle", "--timeout", "8000")), "wait_matched")

	shown := OK[protocol.NotificationShown](t, CLIResponse(t, AgentCLI(t, s, "notification", "show", "Build done", "--body", "all green")), "notification_show")
	if shown.Shown || shown.Reason != "disabled" {
		t.Fatalf("notification show: %+v", shown)
	}

	// agent start: typed into an idle shell, ready when the agent is.
	other := AgentWorkspace(t, s)
	s.WaitPrompt(t, other)
	started := OK[protocol.AgentStarted](t, CLIResponse(t, AgentCLI(t, s, "agent", "start", "alpha", "--kind", "claude", "--pane", other, "--timeout", "10000")), "agent_started")
	if started.Argv[0] != "claude" {
		t.Fatalf("agent start argv: %v", started.Argv)
	}
	AgentCLIFail(t, s, "agent_name_taken", "agent", "start", "alpha", "--kind", "claude", "--pane", p, "--timeout", "10000")
	if a := OK[protocol.AgentInfoResult](t, CLIResponse(t, AgentCLI(t, s, "agent", "get", "alpha")), "agent_info").Agent; a.PaneID != other || !a.InteractiveReady {
		t.Fatalf("started agent: %+v", a)
	}
}
