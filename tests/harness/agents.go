package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FakeClaudeCLI stands in for the Claude Code CLI: it draws what Claude
// shows on cue from stdin (w working, b blocked, i idle, q quit).
const FakeClaudeCLI = `#!/bin/sh
stty -echo
printf 'claude ready\n'
while read cue; do
  printf '\033[2J\033[H'
  case "$cue" in
    w) printf '* Thinking… (esc to interrupt)\n' ;;
    b) printf 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n' ;;
    i) printf 'Done. All tests pass.\n' ;;
    q) exit 0 ;;
  esac
done
`

// AgentWorkspace creates a workspace whose shell finds the fake claude first on PATH.
func AgentWorkspace(t *testing.T, s *Server) string {
	t.Helper()
	bin := Mkdir(t, s, "bin")
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(FakeClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}, "focus": true})
	return created.RootPane.PaneID
}

// AgentCLI runs a CLI command that must succeed and returns its stdout.
func AgentCLI(t *testing.T, s *Server, args ...string) string {
	t.Helper()
	out, errOut, code := s.CLI(args...)
	if code != 0 || errOut != "" {
		t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// AgentCLIFail runs a CLI command that must fail with an API error of code.
func AgentCLIFail(t *testing.T, s *Server, code string, args ...string) {
	t.Helper()
	out, errOut, exit := s.CLI(args...)
	if exit != 1 || out != "" || !strings.Contains(errOut, `"code":"`+code+`"`) {
		t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q; want error %s", strings.Join(args, " "), exit, out, errOut, code)
	}
}

// AgentCLIUsage runs a CLI command that must fail as a usage error: exit 2,
// nothing on stdout, one line on stderr.
func AgentCLIUsage(t *testing.T, s *Server, args ...string) {
	t.Helper()
	out, errOut, exit := s.CLI(args...)
	if exit != 2 || out != "" || !strings.HasPrefix(errOut, "herdr: ") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q; want a usage error", strings.Join(args, " "), exit, out, errOut)
	}
}
