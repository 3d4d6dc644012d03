package persist

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// A stopped server's client exits at once (issue 28, item 6): the
// interactive client runs in a shell in tmux, as a person runs it; when
// its server stops (server stop, session stop) or dies, the tmux pane
// shows the client's last line and the shell's prompt again, with the
// terminal's modes restored. A live handoff still reconnects silently
// (TestHandoff_AttachedClientFollows).

// exitDeadline is how long the pane may take to show the client's end: a
// generous bound for a loaded machine, not a measure of speed.
const exitDeadline = 30 * time.Second

// tmuxPrompt is the shell's prompt, as capture-pane gives it (without
// the trailing space).
const tmuxPrompt = "stoptest$"

// tmuxShell is a detached tmux session running /bin/sh with h's
// environment, on a private tmux server.
type tmuxShell struct {
	t    *testing.T
	sock string
}

func newTmuxShell(t *testing.T, h *Home) *tmuxShell {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	ts := &tmuxShell{t: t, sock: filepath.Join(h.Dir, "tmux.sock")}
	// tmux runs the command with sh -c; a root shell would not take PS1
	// from the environment.
	cmd := exec.Command("tmux", "-S", ts.sock, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "36",
		"PS1='"+tmuxPrompt+" ' exec /bin/sh")
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	cmd.Dir = h.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", ts.sock, "kill-server").Run() })
	WaitFor(t, "the shell's prompt in tmux", func() bool { return strings.Contains(ts.capture(), tmuxPrompt) })
	return ts
}

func (ts *tmuxShell) tmux(args ...string) string {
	ts.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", ts.sock}, args...)...).CombinedOutput()
	if err != nil {
		ts.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// capture is the pane's visible text.
func (ts *tmuxShell) capture() string { return ts.tmux("capture-pane", "-p") }

// typeLine types a command line and Enter into the pane.
func (ts *tmuxShell) typeLine(line string) {
	ts.tmux("send-keys", "-l", line)
	ts.tmux("send-keys", "Enter")
}

// flags are the pane's terminal modes as tmux keeps them.
func (ts *tmuxShell) flags() string {
	return strings.TrimSpace(ts.tmux("display-message", "-p",
		"alternate=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}"))
}

// attach starts the client for session name in the pane and waits until
// it draws its pane.
func (ts *tmuxShell) attach(name string) {
	ts.t.Helper()
	ts.typeLine(HerdrBin + " --session " + name)
	WaitFor(ts.t, "the client on the alternate screen with its pane", func() bool {
		return strings.HasPrefix(ts.flags(), "alternate=1") && strings.Contains(ts.capture(), "╭")
	})
}

// waitEnd waits until the pane shows want and, after it, the shell's
// prompt, with the alternate screen left, the cursor shown and mouse
// reporting off; then it checks the shell reads keys again.
func (ts *tmuxShell) waitEnd(want string) {
	ts.t.Helper()
	deadline := time.Now().Add(exitDeadline)
	var screen string
	for {
		screen = ts.capture()
		if i := strings.Index(screen, want); i >= 0 && strings.Contains(screen[i:], tmuxPrompt) {
			break
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("the pane did not show %q and the prompt within %v; it shows:\n%s", want, exitDeadline, screen)
		}
		time.Sleep(50 * time.Millisecond) // poll interval
	}
	if got := ts.flags(); got != "alternate=0 cursor=1 mouse=000" {
		ts.t.Errorf("terminal modes after the client: %s, want alternate=0 cursor=1 mouse=000", got)
	}
	ts.typeLine("echo back-$((6*7))")
	WaitFor(ts.t, "the shell to run a command after the client", func() bool { return HasLine(ts.capture(), "back-42") })
}

func TestStopClient_ServerStop(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "stop")
	ts := newTmuxShell(t, h)
	ts.attach(s.Name)
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: exit %d: %s", code, stderr)
	}
	ts.waitEnd("[herdr server stopped]")
	if strings.Contains(ts.capture(), "lost the connection") {
		t.Errorf("the client reported a lost connection for a stopped server:\n%s", ts.capture())
	}
}

func TestStopClient_SessionStop(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "named")
	ts := newTmuxShell(t, h)
	ts.attach(s.Name)
	if _, stderr, code := RunCLI(t, h.Env, "session", "stop", s.Name); code != 0 {
		t.Fatalf("session stop: exit %d: %s", code, stderr)
	}
	ts.waitEnd("[herdr server stopped]")
}

// A server that dies without a word leaves a socket nobody listens on:
// the client says so and exits, without looking for it for seconds.
func TestStopClient_ServerKilled(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "killed")
	ts := newTmuxShell(t, h)
	ts.attach(s.Name)
	s.Kill(t)
	ts.waitEnd("[herdr server exited")
}
