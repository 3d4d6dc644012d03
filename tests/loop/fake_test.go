package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fakeClaude draws Claude Code's screens and logs what it is given to
// $FAKE_LOG. It reads one character at a time, as Claude does: a line
// ended by Enter is a prompt ("." ends the turn, "b" and "c" ask two
// different permission questions, a prompt starting "quiet" is taken
// without a turn); while it asks, a digit answers at once. A prompt that
// comes while it works is logged "busy prompt …", which no test wants.
const fakeClaude = `#!/bin/sh
stty -echo -icanon min 1
printf 'claude ready\n'
mode=idle
line=''
turn() { printf '\033[2J\033[H* Working on %s… (esc to interrupt)\n' "$1"; mode=work; }
ask() {
  printf '\033[2J\033[H'
  case "$1" in
    b) printf 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n' ;;
    c) printf 'Bash command\n  git push --force\nDo you want to proceed?\n❯ 1. Yes\n  2. Yes, and do not ask again\n  3. No\n' ;;
  esac
  mode=ask
}
while :; do
  c=$(dd bs=1 count=1 2>/dev/null)
  if [ "$mode" = ask ]; then
    case "$c" in
      [0-9]) printf 'answer %s\n' "$c" >> "$FAKE_LOG"; turn "the answer"; continue ;;
    esac
  fi
  if [ -n "$c" ]; then line="$line$c"; continue; fi
  cue=$line; line=''
  case "$cue" in
    '') ;;
    .) printf '\033[2J\033[HDone.\n'; mode=idle ;;
    b|c) ask "$cue" ;;
    q) exit 0 ;;
    quiet*) printf 'prompt %s\n' "$cue" >> "$FAKE_LOG"; printf '\033[2J\033[HNothing to do.\n' ;;
    *) [ "$mode" = work ] && printf 'busy ' >> "$FAKE_LOG"; printf 'prompt %s\n' "$cue" >> "$FAKE_LOG"; turn "$cue" ;;
  esac
done
`

// startFake opens a workspace whose shell finds the fake claude first on
// PATH, runs it, and waits until the server recognises it. It returns
// the pane and the fake's log.
func startFake(t *testing.T, s *Server) (pane, log string) {
	t.Helper()
	bin := Mkdir(t, s, "bin")
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(s.Home.Dir, "fake.log")
	created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "focus": true})
	pane = created.RootPane.PaneID
	runFake(t, s, pane, bin, log)
	return pane, log
}

// runFake runs the fake by its path, its log named on the command line
// (a restored pane's shell has the environment of its own).
func runFake(t *testing.T, s *Server, pane, bin, log string) {
	t.Helper()
	s.Run(t, pane, "FAKE_LOG="+log+" "+filepath.Join(bin, "claude"))
	WaitFor(t, "the fake claude recognised", func() bool {
		r := s.Call("agent.get", map[string]any{"target": pane})
		return r.Error == nil
	})
}

// cue types a line into the fake.
func cue(t *testing.T, s *Server, pane, line string) {
	t.Helper()
	OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "text": line + "\r"}), "ok")
}

// agent is the pane's agent record.
func agent(t *testing.T, s *Server, pane string) protocol.AgentInfo {
	t.Helper()
	return OK[protocol.AgentInfoResult](t, s.CallT(t, "agent.get", map[string]any{"target": pane}), "agent_info").Agent
}

// waitStatus waits for one of the statuses.
func waitStatus(t *testing.T, s *Server, pane string, st ...protocol.AgentStatus) {
	t.Helper()
	WaitFor(t, fmt.Sprint("agent ", pane, " ", st), func() bool {
		r := s.Call("agent.get", map[string]any{"target": pane})
		if r.Error != nil {
			return false
		}
		var res protocol.AgentInfoResult
		return protocol.Unmarshal(r.Result, &res) == nil && slices.Contains(st, res.Agent.AgentStatus)
	})
}

// logLines is what the fake was given, one entry a line.
func logLines(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
}

func waitLog(t *testing.T, path string, want ...string) {
	t.Helper()
	WaitFor(t, "the fake's log "+strings.Join(want, ", "), func() bool {
		return strings.Join(logLines(t, path), "|") == strings.Join(want, "|")
	})
}

func queueOf(t *testing.T, s *Server, pane string) protocol.AgentQueue {
	t.Helper()
	return OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.list", map[string]any{"target": pane}), "agent_queue").Queue
}
