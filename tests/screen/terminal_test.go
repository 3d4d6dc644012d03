package screen

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// termCLI is a running `herdr terminal session observe|control`: its
// stdout lines arrive on lines, its stdin is in.
type termCLI struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	errb  *SyncBuffer
	done  chan struct{}
}

func startTermCLI(t *testing.T, s *Server, args ...string) *termCLI {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, HerdrBin, append([]string{"--session", s.Name}, args...)...)
	cmd.Env = s.Env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tc := &termCLI{cmd: cmd, in: in, lines: make(chan string, 1024), errb: &SyncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = tc.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			tc.lines <- sc.Text()
		}
		close(tc.lines)
		cmd.Wait()
		close(tc.done)
	}()
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); <-tc.done })
	return tc
}

// termLine is a decoded terminal.frame or terminal.closed line.
type termLine struct {
	Type   string `json:"type"`
	Seq    uint64 `json:"seq"`
	Enc    string `json:"encoding"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Full   bool   `json:"full"`
	Bytes  string `json:"bytes"`
	Reason string `json:"reason"`
	ansi   string
}

// next reads the next line of the stream.
func (tc *termCLI) next(t *testing.T) termLine {
	t.Helper()
	select {
	case l, ok := <-tc.lines:
		if !ok {
			t.Fatalf("stream ended early; stderr: %s", tc.errb.String())
		}
		var tl termLine
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		if tl.Type == protocol.TerminalFrameType {
			b, err := base64.StdEncoding.DecodeString(tl.Bytes)
			if err != nil {
				t.Fatalf("frame bytes are not base64: %v", err)
			}
			tl.ansi = string(b)
		}
		return tl
	case <-time.After(WaitTimeout):
		t.Fatalf("no stream line within %v; stderr: %s", WaitTimeout, tc.errb.String())
	}
	return termLine{}
}

// until reads lines until one satisfies ok.
func (tc *termCLI) until(t *testing.T, why string, ok func(termLine) bool) termLine {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for time.Now().Before(deadline) {
		if l := tc.next(t); ok(l) {
			return l
		}
	}
	t.Fatalf("timed out waiting for %s", why)
	return termLine{}
}

// exitCode waits for the process to end.
func (tc *termCLI) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case <-tc.done:
	case <-time.After(WaitTimeout):
		t.Fatalf("the terminal command did not exit; stderr: %s", tc.errb.String())
	}
	return tc.cmd.ProcessState.ExitCode()
}

func (tc *termCLI) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(tc.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func TestTerminal_Observe_FramesThenClosed(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)
	tc := startTermCLI(t, s, "terminal", "session", "observe", pane, "--cols", "40", "--rows", "10")
	first := tc.next(t)
	if first.Type != "terminal.frame" || first.Seq != 1 || !first.Full || first.Enc != "ansi" || first.Width != 40 || first.Height != 10 {
		t.Fatalf("first line: %+v", first)
	}
	if !strings.HasPrefix(first.ansi, "\x1b[0m\x1b[H\x1b[2J") {
		t.Fatalf("a full frame repaints from a cleared screen: %q", first.ansi)
	}
	s.Run(t, pane, "echo obs-$((6*7))")
	tc.until(t, "the command's output in a frame", func(l termLine) bool { return strings.Contains(l.ansi, "obs-42") })
	OK[protocol.OK](t, s.CallT(t, "pane.close", map[string]any{"pane_id": pane}), "ok")
	closed := tc.until(t, "terminal.closed", func(l termLine) bool { return l.Type == "terminal.closed" })
	if closed.Reason != "terminal "+ws.RootPane.TerminalID+" exited" {
		t.Fatalf("closed reason: %q", closed.Reason)
	}
	if code := tc.exitCode(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestTerminal_Observe_TargetForms(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	for _, target := range []string{ws.RootPane.TerminalID, ws.RootPane.PaneID} {
		tc := startTermCLI(t, s, "terminal", "session", "observe", target)
		if l := tc.next(t); l.Type != "terminal.frame" || l.Width != protocol.TerminalDefaultCols || l.Height != protocol.TerminalDefaultRows {
			t.Fatalf("observe %s: %+v", target, l)
		}
	}
	out, stderr, code := s.CLI("terminal", "session", "observe", "term_nope")
	if code != 1 || stderr != "" {
		t.Fatalf("unknown target: exit %d, stderr %q", code, stderr)
	}
	var closed termLine
	if err := json.Unmarshal([]byte(out), &closed); err != nil || closed.Type != "terminal.closed" || closed.Reason != "terminal session observe failed: terminal target term_nope not found" {
		t.Fatalf("unknown target: %q", out)
	}
}

func TestTerminal_Control_InputResizeTakeoverRelease(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	term := ws.RootPane.TerminalID
	s.WaitPrompt(t, ws.RootPane.PaneID)
	ctl := startTermCLI(t, s, "terminal", "session", "control", term, "--cols", "60", "--rows", "12")
	ctl.next(t)
	ctl.send(t, `{"type":"terminal.input","text":"echo ctl-$((6*7))\r"}`)
	ctl.until(t, "the typed command's output", func(l termLine) bool { return strings.Contains(l.ansi, "ctl-42") })
	ctl.send(t, `{"type":"terminal.input","bytes":"`+base64.StdEncoding.EncodeToString([]byte("echo b64-$((2*3))\r"))+`"}`)
	ctl.until(t, "base64 input's output", func(l termLine) bool { return strings.Contains(l.ansi, "b64-6") })
	ctl.send(t, `{"type":"terminal.resize","cols":50,"rows":8}`)
	if l := ctl.until(t, "a frame of the new size", func(l termLine) bool { return l.Width == 50 }); !l.Full || l.Height != 8 {
		t.Fatalf("resized frame: %+v", l)
	}
	ctl.send(t, `{"type":"terminal.bogus"}`)
	WaitFor(t, "a bad line reported", func() bool { return strings.Contains(ctl.errb.String(), "terminal session control input ignored") })

	// A second controller is refused, then takes over.
	out, _, code := s.CLI("terminal", "session", "control", term)
	if code != 1 || !strings.Contains(out, `"type":"terminal.closed"`) || !strings.Contains(out, "already has an attached client; retry with --takeover") {
		t.Fatalf("second controller: exit %d, %q", code, out)
	}
	ctl2 := startTermCLI(t, s, "terminal", "session", "control", term, "--takeover")
	ctl2.next(t)
	if l := ctl.until(t, "the first controller's end", func(l termLine) bool { return l.Type == "terminal.closed" }); l.Reason != "terminal attach taken over" {
		t.Fatalf("taken over: %+v", l)
	}
	if code := ctl.exitCode(t); code != 0 {
		t.Fatalf("taken-over controller exit %d", code)
	}
	ctl2.send(t, `{"type":"terminal.release"}`)
	if l := ctl2.until(t, "release", func(l termLine) bool { return l.Type == "terminal.closed" }); l.Reason != "detached" {
		t.Fatalf("release: %+v", l)
	}
	if code := ctl2.exitCode(t); code != 0 {
		t.Fatalf("released controller exit %d", code)
	}
	// Released: a new controller needs no takeover.
	ctl3 := startTermCLI(t, s, "terminal", "session", "control", term)
	if l := ctl3.next(t); l.Type != "terminal.frame" {
		t.Fatalf("after release: %+v", l)
	}
}

func TestTerminal_Title(t *testing.T) {
	s := StartServer(t)
	for _, args := range [][]string{{"terminal", "title", "set", "build"}, {"terminal", "title", "clear"}} {
		out, _, code := s.CLI(args...)
		resp := CLIResponse(t, out)
		if code != 0 || !strings.Contains(string(resp.Result), `"no_foreground_client"`) {
			t.Fatalf("%v: exit %d %s", args, code, out)
		}
	}
}

func TestTerminal_Attach_TypesAndDetaches(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, ws.RootPane.PaneID)
	cmd := exec.Command(HerdrBin, "--session", s.Name, "terminal", "attach", ws.RootPane.TerminalID)
	cmd.Env = append(s.Env, "TERM=xterm-256color")
	c := StartTUI(t, cmd)
	c.WaitScreen(t, "the shell's prompt", func(s string) bool { return strings.TrimSpace(s) != "" })
	c.Type("echo att-$((2*3))\r")
	c.WaitText(t, "att-6")
	c.Type(TuiPrefix + TuiPrefix) // a literal ctrl+b reaches the shell…
	c.Type("\x15")                // …and ctrl+u clears it from the line again
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("attach exit %d", code)
	}
	// The shell is still there, and got the command typed through attach.
	s.WaitLine(t, ws.RootPane.PaneID, "att-6")
}

func TestTerminal_AgentAttach_NoAgent(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	cmd := exec.Command(HerdrBin, "--session", s.Name, "agent", "attach", ws.RootPane.PaneID)
	cmd.Env = s.Env
	c := StartTUI(t, cmd)
	if code := c.WaitExit(t); code != 1 {
		t.Fatalf("agent attach of a plain shell: exit %d", code)
	}
	c.WaitText(t, "agent_not_found")
}

// agent attach by name reaches the agent's own terminal: its screen is
// shown, keys typed go to the agent, and ctrl+b q leaves it running.
func TestTerminal_AgentAttach_FakeAgent(t *testing.T) {
	s := StartServer(t)
	p := AgentWorkspace(t, s)
	s.Run(t, p, "claude")
	WaitFor(t, "claude in agent list", func() bool {
		out, _, code := s.CLI("agent", "list")
		return code == 0 && strings.Contains(out, `"agent":"claude"`)
	})
	s.WaitLine(t, p, "claude ready")
	OK[protocol.AgentInfoResult](t, s.Call("agent.rename", map[string]any{"target": p, "name": "bob"}), "agent_info")

	cmd := exec.Command(HerdrBin, "--session", s.Name, "agent", "attach", "bob")
	cmd.Env = append(s.Env, "TERM=xterm-256color")
	c := StartTUI(t, cmd)
	c.WaitText(t, "claude ready")
	c.Type("i\r") // the fake answers the cue i with its idle screen
	c.WaitText(t, "Done. All tests pass.")
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("agent attach exit %d; screen:\n%s", code, c.Screen())
	}
	// The key went to the agent itself, which still runs after the detach.
	s.WaitLine(t, p, "Done. All tests pass.")
	got := OK[protocol.AgentInfoResult](t, s.Call("agent.get", map[string]any{"target": "bob"}), "agent_info").Agent
	if got.PaneID != p || got.Agent == nil || *got.Agent != "claude" {
		t.Fatalf("agent after detach: %+v", got)
	}
}

func TestNoSession_ServerLivesAndDiesWithTheClient(t *testing.T) {
	h := NewHome(t)
	sock := h.Socket("mono")
	cmd := exec.Command(HerdrBin, "--session", "mono", "--no-session")
	cmd.Env = append(h.Env, "TERM=xterm-256color")
	cmd.Dir = h.Dir
	c := StartTUI(t, cmd)
	c.WaitScreen(t, "the client", func(s string) bool { return strings.Contains(s, "╭") })
	// The API socket works while the client runs, for the CLI too.
	out, _, code := RunCLI(t, h.Env, "--session", "mono", "pane", "list")
	if code != 0 || !strings.Contains(out, `"pane_list"`) {
		t.Fatalf("pane list under --no-session: exit %d %s", code, out)
	}
	// A second one on the same socket is refused.
	cmd2 := exec.Command(HerdrBin, "--session", "mono", "--no-session")
	cmd2.Env = append(h.Env, "TERM=xterm-256color")
	c2 := StartTUI(t, cmd2)
	if code := c2.WaitExit(t); code != 1 {
		t.Fatalf("second --no-session: exit %d", code)
	}
	c2.WaitText(t, "error: herdr is already running")
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("detach exit %d", code)
	}
	if !Refused(sock) {
		t.Fatal("the server outlived its --no-session client")
	}
	if _, err := os.Stat(filepath.Join(h.ConfigHome, "herdr", "sessions", "mono", "session.json")); err == nil {
		t.Fatal("--no-session saved a session.json")
	}
}
