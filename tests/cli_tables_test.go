package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
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
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, herdrBin, append([]string{"--session", s.Name}, args...)...)
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

// TestCLITables_TerminalTableAndPipedJSON: the list commands draw a table
// (a header row, one row per item) when stdout is a terminal, and print
// JSON when piped or given --json, as scripts expect.
func TestCLITables_TerminalTableAndPipedJSON(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "tables")
	ws := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)
	agent := agentWorkspace(t, s)
	s.WaitPrompt(t, agent)
	agentCLI(t, s, "agent", "start", "rev", "--kind", "claude", "--pane", agent, "--timeout", "10000")

	for _, c := range []struct {
		args   []string
		header []string // the table's first row, word by word
		item   string   // a cell of a row
		key    string   // the JSON answer's list
	}{
		{[]string{"pane", "list"}, []string{"PANE", "WORKSPACE", "TAB", "FOCUS", "AGENT", "STATUS", "TITLE", "CWD"}, pane, "panes"},
		{[]string{"workspace", "list"}, []string{"WORKSPACE", "#", "LABEL", "FOCUS", "TABS", "PANES", "STATUS", "REPO"}, ws.Workspace.WorkspaceID, "workspaces"},
		{[]string{"agent", "list"}, []string{"PANE", "NAME", "AGENT", "STATUS", "FOCUS", "MACHINE", "CWD"}, "rev", "agents"},
		{[]string{"session", "list"}, []string{"NAME", "STATUS", "DIRECTORY", "SOCKET"}, "tables", "sessions"},
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
			var answer map[string]any
			if err := json.Unmarshal([]byte(out), &answer); err != nil {
				t.Errorf("%s %v: want JSON, got %q (%v)", name, extra, out, err)
				continue
			}
			if r, ok := answer["result"].(map[string]any); ok {
				answer = r
			}
			if list, ok := answer[c.key].([]any); !ok || len(list) == 0 {
				t.Errorf("%s %v: no %s in %q", name, extra, c.key, out)
			}
		}
	}
}
