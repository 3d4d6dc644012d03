//go:build unix

package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestCLIEvents_DefaultShowsAgentStatusChanges: `herdr events` without
// --type prints every pane's agent status changes among the lifecycle
// events, and `--type pane.agent_status_changed` without --pane means every
// pane's (it used to need --pane, and the default left them out).
func TestCLIEvents_DefaultShowsAgentStatusChanges(t *testing.T) {
	s := StartServer(t)
	p := AgentWorkspace(t, s)
	s.Run(t, p, "claude")
	WaitFor(t, "claude detected", func() bool {
		out, _, code := s.CLI("agent", "get", p)
		return code == 0 && strings.Contains(out, `"agent":"claude"`)
	})
	for _, args := range [][]string{{"events"}, {"events", "--type", "pane.agent_status_changed"}} {
		name := strings.Join(args, " ")
		lines := streamCLI(t, s, args...)
		cue := "w"
		seen := Eventually(func() bool {
			s.Run(t, p, cue) // working, idle, working, …: every cue a change
			if cue == "w" {
				cue = "i"
			} else {
				cue = "w"
			}
			deadline := time.After(500 * time.Millisecond)
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("herdr %s ended", name)
					}
					if strings.Contains(l, `"event":"pane_agent_status_changed"`) && strings.Contains(l, `"pane_id":"`+p+`"`) {
						return true
					}
				case <-deadline:
					return false
				}
			}
		})
		if !seen {
			t.Fatalf("herdr %s: no pane_agent_status_changed for %s while its agent worked and idled", name, p)
		}
	}
	// --pane keeps the one-pane (dedicated) subscription.
	if _, errOut, code := s.CLI("events", "--type", "pane.scroll_changed"); code != 2 || !strings.Contains(errOut, "needs --pane") {
		t.Fatalf("events --type pane.scroll_changed without --pane: exit %d %q", code, errOut)
	}
}

// streamCLI starts a streaming herdr command and returns its stdout lines;
// the command is killed when the test ends.
func streamCLI(t *testing.T, s *Server, args ...string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, HerdrBin, append([]string{"--session", s.Name}, args...)...)
	cmd.Env, cmd.Dir = s.Env, os.TempDir()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return lines
}

// gatedClaude works on the cue x until the file gate exists, then is idle;
// the cues of fakeClaudeCLI otherwise.
const gatedClaude = `#!/bin/sh
stty -echo
printf 'claude ready\n'
while read cue; do
  printf '\033[2J\033[H'
  case "$cue" in
    x) printf '* Thinking… (esc to interrupt)\n'
       while [ ! -e "$GATE" ]; do sleep 0.05; done
       printf '\033[2J\033[HDone. All tests pass.\n' ;;
    b) printf 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n' ;;
    i) printf 'Done. All tests pass.\n' ;;
  esac
done
`

// gatedAgent starts gatedClaude in a focused workspace and returns its pane
// and the gate file that ends its turn.
func gatedAgent(t *testing.T, s *Server) (pane, gate string) {
	t.Helper()
	bin := Mkdir(t, s, "gbin")
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(gatedClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	gate = filepath.Join(s.Home.Dir, "gate")
	created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "focus": true,
		"env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH"), "GATE": gate}})
	pane = created.RootPane.PaneID
	s.Run(t, pane, "claude")
	WaitFor(t, "claude detected", func() bool {
		out, _, code := s.CLI("agent", "get", pane)
		return code == 0 && strings.Contains(out, `"agent":"claude"`)
	})
	AgentCLI(t, s, "agent", "rename", pane, "gated")
	AgentCLI(t, s, "wait", "agent-status", pane, "--status", "idle", "--timeout", "15000")
	return pane, gate
}

// TestCLIAgent_UntilFinishedOnAFocusedPane: an agent whose pane is focused
// finishes its turn as idle, never done; `--until finished` (done, or idle
// after working) ends there while `--until done` would wait for ever.
func TestCLIAgent_UntilFinishedOnAFocusedPane(t *testing.T) {
	s := StartServer(t)
	p, gate := gatedAgent(t, s)

	type result struct {
		out, errOut string
		code        int
	}
	prompted := make(chan result, 1)
	go func() {
		out, errOut, code := s.CLI("agent", "prompt", "gated", "x", "--wait", "--until", "finished", "--timeout", "15000")
		prompted <- result{out, errOut, code}
	}()
	AgentCLI(t, s, "wait", "agent-status", p, "--status", "working", "--timeout", "15000")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := <-prompted
	if r.code != 0 {
		t.Fatalf("agent prompt --wait --until finished: exit %d %q %q", r.code, r.out, r.errOut)
	}
	got := OK[protocol.AgentPrompted](t, CLIResponse(t, r.out), "agent_prompted")
	if got.Agent.AgentStatus != protocol.StatusIdle {
		t.Fatalf("a focused agent's finished turn: %s, want idle (the seen rule)", got.Agent.AgentStatus)
	}
	// The focused agent is idle: done never comes (this wait is bounded so
	// the test ends; without --timeout it would wait for ever) …
	_, errOut, code := s.CLI("agent", "wait", "gated", "--until", "done", "--timeout", "1500")
	if code != 1 || !strings.Contains(errOut, `"code":"timeout"`) {
		t.Fatalf("agent wait --until done on a focused idle agent: exit %d %q, want a timeout", code, errOut)
	}
	// … and finished needs a turn since the wait began: idle alone is not one.
	_, errOut, code = s.CLI("agent", "wait", "gated", "--until", "finished", "--timeout", "1500")
	if code != 1 || !strings.Contains(errOut, `"code":"timeout"`) {
		t.Fatalf("agent wait --until finished with no turn: exit %d %q, want a timeout", code, errOut)
	}
	// agent wait --until finished, the README's example, ends with the next
	// turn it sees: a turn is worked, then ended, until the wait (started
	// before the first) has answered.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := exec.CommandContext(ctx, HerdrBin, "--session", s.Name, "agent", "wait", "gated", "--until", "finished")
	wait.Env, wait.Dir = s.Env, os.TempDir()
	var waitOut SyncBuffer
	wait.Stdout = &waitOut
	if err := wait.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- wait.Wait() }()
	var werr error
	answered := Eventually(func() bool {
		if err := os.Remove(gate); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		s.Run(t, p, "x")
		AgentCLI(t, s, "wait", "agent-status", p, "--status", "working", "--timeout", "15000")
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		AgentCLI(t, s, "wait", "agent-status", p, "--status", "idle", "--timeout", "15000")
		select {
		case werr = <-waited:
			return true
		case <-time.After(2 * time.Second): // not yet registered: another turn
			return false
		}
	})
	if !answered || werr != nil {
		t.Fatalf("agent wait --until finished over turns of a focused agent: answered %v, %v, stdout %q", answered, werr, waitOut.String())
	}
	if st := OK[protocol.AgentInfoResult](t, CLIResponse(t, waitOut.String()), "agent_info").Agent.AgentStatus; st != protocol.StatusIdle {
		t.Fatalf("agent wait --until finished answered %s, want idle", st)
	}
	// The help says which one scripts want.
	help, _, _ := s.CLI("agent", "wait", "--help")
	if !strings.Contains(help, "--until finished") || !strings.Contains(help, "never reached by an agent whose pane is focused") {
		t.Fatalf("agent wait --help does not explain done vs finished:\n%s", help)
	}
	AgentCLIUsage(t, s, "agent", "wait", "gated", "--until", "finishd")
}

// TestCLIAgent_PromptOnBlockedSaysHowToAnswer: prompting an agent that is
// blocked on a question fails with agent_blocked and says how to read and
// answer the question.
func TestCLIAgent_PromptOnBlockedSaysHowToAnswer(t *testing.T) {
	s := StartServer(t)
	p, _ := gatedAgent(t, s)
	s.Run(t, p, "b")
	AgentCLI(t, s, "wait", "agent-status", p, "--status", "blocked", "--timeout", "15000")
	out, errOut, code := s.CLI("agent", "prompt", "gated", "go on")
	if code != 1 || out != "" || !strings.Contains(errOut, `"code":"agent_blocked"`) {
		t.Fatalf("agent prompt on a blocked agent: exit %d %q %q", code, out, errOut)
	}
	for _, want := range []string{"herdr agent read " + p, "herdr agent send-keys " + p} {
		if !strings.Contains(errOut, want) {
			t.Errorf("agent_blocked message does not say %q: %s", want, errOut)
		}
	}
}
