package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	. "github.com/herdr-go/herdr/tests/harness"
)

// runOnTerminal runs herdr with its stdout on a real pty (stdin and
// stderr are not), as a person at a terminal runs it, and returns what
// the terminal received.
func runOnTerminal(t *testing.T, s *Server, args ...string) string {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer ptm.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 48, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, HerdrBin, append([]string{"--session", s.Name}, args...)...)
	cmd.Env, cmd.Dir, cmd.Stdout = s.Env, os.TempDir(), tty
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child holds its own copy: its exit ends the reads
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { _, _ = io.Copy(&out, ptm); close(done) }()
	werr := cmd.Wait()
	<-done // EIO once the child's side is closed
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) || ee.ExitCode() != 0 {
			t.Fatalf("herdr %s on a terminal: %v; stderr %s", strings.Join(args, " "), werr, errb.String())
		}
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// TestCLITables_TerminalTableAndPipedJSON: every list command draws a
// table (a header row, one row per item) when stdout is a terminal, and
// prints the compact response line the socket API answers —
// {"id":"cli:NOUN:list","result":{"type":…,LIST:[…]}} on one line — when
// piped or given --json, the local lists (session, machine, and plugin
// without a server) in that same envelope.
func TestCLITables_TerminalTableAndPipedJSON(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "tables")
	ws := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)
	agent := AgentWorkspace(t, s)
	s.WaitPrompt(t, agent)
	AgentCLI(t, s, "agent", "start", "rev", "--kind", "claude", "--pane", agent, "--timeout", "10000")
	AgentCLI(t, s, "task", "create", "--title", "Tabulate", "--cwd", h.Dir, "--backlog")
	plugin := filepath.Join(h.Dir, "plug")
	if err := os.MkdirAll(plugin, 0o700); err != nil {
		t.Fatal(err)
	}
	manifest := "id = \"test.table\"\nname = \"Table\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n"
	if err := os.WriteFile(filepath.Join(plugin, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	AgentCLI(t, s, "plugin", "link", plugin)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	// A saved machine, disabled so that nothing dials it.
	machinesJSON := filepath.Join(h.ConfigHome, "herdr", "machines.json")
	if err := os.WriteFile(machinesJSON, []byte(`{"machines":[{"id":"m-0a1b2c3d","label":"build","target":"build.example.com","remote_session":"ci","enabled":false}]}`), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		args   []string
		header []string // the table's first row, word by word
		item   string   // a cell of a row
		typ    string   // the answer's result type
		key    string   // the JSON answer's list
	}{
		{[]string{"workspace", "list"}, []string{"WORKSPACE", "#", "LABEL", "FOCUS", "TABS", "PANES", "STATUS", "REPO"}, ws.Workspace.WorkspaceID, "workspace_list", "workspaces"},
		{[]string{"tab", "list"}, []string{"TAB", "WORKSPACE", "#", "LABEL", "FOCUS", "PANES", "STATUS"}, ws.Tab.TabID, "tab_list", "tabs"},
		{[]string{"pane", "list"}, []string{"PANE", "WORKSPACE", "TAB", "FOCUS", "AGENT", "STATUS", "TITLE", "CWD"}, pane, "pane_list", "panes"},
		{[]string{"agent", "list"}, []string{"PANE", "NAME", "AGENT", "STATUS", "FOCUS", "MACHINE", "CWD"}, "rev", "agent_list", "agents"},
		{[]string{"session", "list"}, []string{"NAME", "STATUS", "DIRECTORY", "SOCKET"}, "tables", "", "sessions"}, // Herdr's {"sessions":[…]}
		{[]string{"task", "list"}, []string{"TASK", "STATUS", "PRIORITY", "TITLE", "ASSIGNEE", "ATTEMPTS", "CWD"}, "Tabulate", "task_list", "tasks"},
		{[]string{"plugin", "list"}, []string{"PLUGIN", "NAME", "VERSION", "ENABLED", "WARNINGS", "ROOT"}, "test.table", "plugin_list", "plugins"},
		{[]string{"worktree", "list", "--cwd", repo}, []string{"PATH", "BRANCH", "LABEL", "WORKSPACE", "KIND"}, "main", "worktree_list", "worktrees"},
		{[]string{"machine", "list"}, []string{"ID", "LABEL", "TARGET", "SESSION", "STATE"}, "build.example.com", "machine_list", "machines"},
	} {
		name := strings.Join(c.args, " ")
		shown := runOnTerminal(t, s, c.args...)
		t.Logf("herdr %s at a terminal:\n%s", name, shown)
		lines := strings.Split(strings.TrimRight(shown, "\n"), "\n")
		if strings.HasPrefix(strings.TrimSpace(shown), "{") || strings.Join(strings.Fields(lines[0]), " ") != strings.Join(c.header, " ") {
			t.Errorf("%s at a terminal: want a table headed %q, got\n%s", name, c.header, shown)
		} else if !strings.Contains(strings.Join(lines[1:], "\n"), c.item) {
			t.Errorf("%s at a terminal: no row holds %q:\n%s", name, c.item, shown)
		}

		for _, extra := range [][]string{nil, {"--json"}} {
			var out string
			if extra == nil {
				var code int
				out, _, code = s.CLI(c.args...)
				if code != 0 {
					t.Fatalf("%s piped: exit %d", name, code)
				}
			} else {
				out = runOnTerminal(t, s, append(c.args, extra...)...)
			}
			checkListLine(t, name, extra, out, "cli:"+c.args[0]+":list", c.typ, c.key)
		}
	}

	// Without a server, plugin list reads the registry: the same envelope.
	out, errOut, code := s.CLI("server", "stop")
	if code != 0 {
		t.Fatalf("server stop: exit %d %q %q", code, out, errOut)
	}
	out, _, code = s.CLI("plugin", "list")
	if code != 0 {
		t.Fatalf("plugin list without a server: exit %d", code)
	}
	checkListLine(t, "plugin list (no server)", nil, out, "cli:plugin:list", "plugin_list", "plugins")
}

// checkListLine checks that out is one compact response line with id whose
// result has type typ and a non-empty list under key.
func checkListLine(t *testing.T, name string, extra []string, out, id, typ, key string) {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("%s %v: want one compact JSON line, got %q", name, extra, out)
		return
	}
	if typ == "" { // a list Herdr prints bare, outside a response's envelope
		var bare map[string][]any
		if err := json.Unmarshal([]byte(out), &bare); err != nil || len(bare[key]) == 0 {
			t.Errorf("%s %v: want {%q:[…]}, got %q (%v)", name, extra, key, out, err)
		}
		return
	}
	var answer struct {
		ID     string                     `json:"id"`
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Errorf("%s %v: want JSON, got %q (%v)", name, extra, out, err)
		return
	}
	var list []any
	_ = json.Unmarshal(answer.Result[key], &list)
	if answer.ID != id || string(answer.Result["type"]) != `"`+typ+`"` || len(list) == 0 {
		t.Errorf("%s %v: want {\"id\":%q,\"result\":{\"type\":%q,%q:[…]}}, got %q", name, extra, id, typ, key, out)
	}
}

// TestCLIChanges_MachineEditsSayWhatChanged: the local machine edits are
// not silent: each says what it did in one line, as machine add and
// session stop do; a failed one changes nothing.
func TestCLIChanges_MachineEditsSayWhatChanged(t *testing.T) {
	h := NewHome(t)
	machinesJSON := filepath.Join(h.ConfigHome, "herdr", "machines.json")
	if err := os.MkdirAll(filepath.Dir(machinesJSON), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(machinesJSON, []byte(`{"machines":[{"id":"m-0a1b2c3d","label":"build","target":"build.example.com","enabled":true}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"machine", "disable", "build"}, "disabled machine m-0a1b2c3d (build)\n"},
		{[]string{"machine", "enable", "m-0a1b2c3d"}, "enabled machine m-0a1b2c3d (build)\n"},
		{[]string{"machine", "rename", "build", "--label", "gpu"}, "renamed machine m-0a1b2c3d (gpu)\n"},
		{[]string{"machine", "remove", "gpu"}, "removed machine m-0a1b2c3d (gpu)\n"},
	} {
		out, errOut, code := RunCLI(t, h.Env, c.args...)
		if code != 0 || out != c.want || errOut != "" {
			t.Errorf("herdr %s: exit %d stdout %q stderr %q, want %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
	if out, errOut, code := RunCLI(t, h.Env, "machine", "remove", "gpu"); code != 1 || out != "" || !strings.Contains(errOut, `no machine "gpu"`) {
		t.Errorf("removing a machine twice: exit %d %q %q", code, out, errOut)
	}
}
