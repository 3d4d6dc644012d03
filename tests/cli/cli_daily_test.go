package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// What a daily CLI user types (issue 34): the pane as a plain argument,
// `plugin action invoke PLUGIN ACTION`, a worktree removed by its path or
// branch.

func TestE2E_CLIDaily_PaneAsArgument(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, map[string]any{})
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")

	out, stderr, code := s.CLI("pane", "process-info", "w1:p2")
	if code != 0 {
		t.Fatalf("pane process-info w1:p2: exit %d %s", code, stderr)
	}
	if got := OK[protocol.PaneProcessInfoResult](t, CLIResponse(t, out), "pane_process_info").ProcessInfo.PaneID; got != "w1:p2" {
		t.Fatalf("process-info answered for %s, want w1:p2 (the focused pane is w1:p1)", got)
	}
	out, stderr, code = s.CLI("pane", "layout", "w1:p2")
	if code != 0 {
		t.Fatalf("pane layout w1:p2: exit %d %s", code, stderr)
	}
	OK[protocol.PaneLayout](t, CLIResponse(t, out), "pane_layout")
	// The argument reaches the server: an unknown pane is its error, exit 1.
	_, stderr, code = s.CLI("pane", "layout", "w1:p9")
	if code != 1 || !strings.Contains(stderr, protocol.CodePaneNotFound) {
		t.Fatalf("pane layout w1:p9: exit %d %q, want 1 pane_not_found", code, stderr)
	}
	_, stderr, code = s.CLI("pane", "process-info", "w1:p2", "--pane", "w1:p1")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("argument and --pane: exit %d %q, want a one-line usage error", code, stderr)
	}
}

func TestE2E_CLIDaily_PluginActionInvokeReadsAsWritten(t *testing.T) {
	h := NewHome(t)
	fixture, err := filepath.Abs(filepath.Join("..", "testdata", "plugins", "worktree-notes"))
	if err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "plug")
	if _, stderr, code := s.CLI("plugin", "link", fixture); code != 0 {
		t.Fatalf("plugin link: %d %s", code, stderr)
	}
	s.CreateWorkspace(t, map[string]any{})
	out, stderr, code := s.CLI("plugin", "action", "invoke", "test.worktree-notes", "where")
	if code != 0 {
		t.Fatalf("plugin action invoke PLUGIN ACTION: exit %d %s", code, stderr)
	}
	got := OK[protocol.PluginActionInvoked](t, CLIResponse(t, out), "plugin_action_invoked").Action
	if got.PluginID != "test.worktree-notes" || got.ActionID != "where" {
		t.Fatalf("invoked %+v", got)
	}
	// The first word is the plugin: another plugin's name is refused by the server.
	_, stderr, code = s.CLI("plugin", "action", "invoke", "test.nobody", "where")
	if code != 1 || !strings.Contains(stderr, `"error"`) {
		t.Fatalf("invoke with an unknown plugin: exit %d %q, want an API error", code, stderr)
	}
	_, stderr, code = s.CLI("plugin", "action", "invoke", "test.worktree-notes", "where", "--plugin", "test.worktree-notes")
	if code != 2 {
		t.Fatalf("plugin twice: exit %d %q, want 2", code, stderr)
	}
}

func TestE2E_CLIDaily_WorktreeRemoveByPathOrBranch(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "wt")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})
	byPath := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "by-path"}), "worktree_created")
	byBranch := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "by-branch"}), "worktree_created")

	out, stderr, code := s.CLI("worktree", "remove", byPath.Worktree.Path)
	if code != 0 {
		t.Fatalf("worktree remove PATH: exit %d %s", code, stderr)
	}
	if got := OK[protocol.WorktreeRemoved](t, CLIResponse(t, out), "worktree_removed"); got.WorkspaceID != byPath.Workspace.WorkspaceID {
		t.Fatalf("removed %+v, want workspace %s", got, byPath.Workspace.WorkspaceID)
	}
	if _, err := os.Stat(byPath.Worktree.Path); !os.IsNotExist(err) {
		t.Fatalf("checkout %s still there: %v", byPath.Worktree.Path, err)
	}

	// A branch not in the repository is a one-line API error, and nothing goes.
	_, stderr, code = s.CLI("worktree", "remove", "no-such-branch", "--cwd", repo)
	if code != 1 || !strings.Contains(stderr, protocol.CodeWorktreeNotFound) {
		t.Fatalf("unknown branch: exit %d %q", code, stderr)
	}
	out, stderr, code = s.CLI("worktree", "remove", "by-branch", "--cwd", repo)
	if code != 0 {
		t.Fatalf("worktree remove BRANCH: exit %d %s", code, stderr)
	}
	if got := OK[protocol.WorktreeRemoved](t, CLIResponse(t, out), "worktree_removed"); got.WorkspaceID != byBranch.Workspace.WorkspaceID {
		t.Fatalf("removed %+v, want workspace %s", got, byBranch.Workspace.WorkspaceID)
	}
	_, stderr, code = s.CLI("worktree", "remove", "main", "--workspace", "w1")
	if code != 2 {
		t.Fatalf("a name and --workspace: exit %d %q, want 2", code, stderr)
	}
}

// Typos through the real binary: one line naming what was meant, exit 2.
func TestE2E_CLIDaily_TyposSuggest(t *testing.T) {
	h := NewHome(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pane", "splt"}, "did you mean split?"},
		{[]string{"workspace", "create", "--lable", "x"}, "did you mean --label?"},
		{[]string{"pane", "wait-output", "w1:p1", "--match", "x", "--timeout", "abc"}, "expected a whole number"},
	} {
		_, stderr, code := RunCLI(t, h.Env, c.args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("herdr %s: exit %d %q, want 2 and one line with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// session delete takes the session's state folder (its server log) with
// its directory: nothing of it is left under the state directory.
func TestE2E_CLIDaily_SessionDeleteLeavesNoState(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "gone")
	state := filepath.Join(h.Dir, "s", "herdr", "sessions", "gone")
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("the running session has no state folder to test with: %v", err)
	}
	if _, stderr, code := RunCLI(t, h.Env, "session", "stop", "gone"); code != 0 {
		t.Fatalf("session stop: %d %s", code, stderr)
	}
	s.WaitExit(t)
	if _, stderr, code := RunCLI(t, h.Env, "session", "delete", "gone"); code != 0 {
		t.Fatalf("session delete: %d %s", code, stderr)
	}
	for _, dir := range []string{filepath.Dir(s.Socket), state} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s left behind after session delete (%v)", dir, err)
		}
	}
}

// status names the server's process and how long it has run.
func TestE2E_CLIDaily_StatusShowsPIDAndUptime(t *testing.T) {
	s := StartServer(t)
	out, stderr, code := s.CLI("status", "server")
	if code != 0 {
		t.Fatalf("status: %d %s", code, stderr)
	}
	if want := fmt.Sprintf("  pid: %d\n", s.Cmd.Process.Pid); !strings.Contains(out, want) {
		t.Errorf("status does not show %q:\n%s", want, out)
	}
	if !strings.Contains(out, "  uptime: ") || strings.Contains(out, "uptime: unknown") {
		t.Errorf("status shows no uptime:\n%s", out)
	}
	out, _, _ = s.CLI("status", "server", "--json")
	var rep struct {
		Server struct {
			PID       *int    `json:"pid"`
			StartedAt *string `json:"started_at"`
		} `json:"server"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Server.PID == nil || *rep.Server.PID != s.Cmd.Process.Pid || rep.Server.StartedAt == nil {
		t.Errorf("status --json: %v %s", err, out)
	}
}
