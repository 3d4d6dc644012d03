package harness

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

const (
	TuiCols   = 120
	TuiRows   = 36
	TuiPrefix = "\x02" // ctrl+b
)

// TUI is a `herdr --session NAME` client running in a PTY.
type TUI struct {
	t      testing.TB
	Cmd    *exec.Cmd
	Pty    *os.File
	Mu     sync.Mutex
	Term   *emulator.Terminal
	Bytes  atomic.Int64 // bytes the client wrote to its terminal
	raw    []byte       // everything it wrote (under mu)
	exited chan struct{}
	err    error
}

// Attach runs the client for session name in h with a cols×rows terminal,
// with dir as its working directory.
func Attach(t testing.TB, h *Home, name, dir string) *TUI {
	t.Helper()
	cmd := exec.Command(HerdrBin, "--session", name)
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	cmd.Dir = dir
	return StartTUI(t, cmd)
}

// StartTUI runs cmd on a PTY of the test terminal's size, reading its
// output into an emulator (tmux runs here too, for side-by-side figures).
func StartTUI(t testing.TB, cmd *exec.Cmd) *TUI {
	t.Helper()
	c := &TUI{t: t, exited: make(chan struct{}), Cmd: cmd}
	var err error
	c.Term = emulator.New(TuiCols, TuiRows, emulator.Options{Reply: func(b []byte) { c.Pty.Write(b) }})
	c.Pty, err = pty.StartWithSize(c.Cmd, &pty.Winsize{Cols: TuiCols, Rows: TuiRows})
	if err != nil {
		t.Fatalf("start client: %v", err)
	}
	go c.readLoop()
	go func() { c.err = c.Cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() {
		if !c.Exited() {
			_ = c.Cmd.Process.Signal(syscall.SIGKILL)
			<-c.exited
		}
		c.Pty.Close()
		if t.Failed() {
			t.Logf("client screen at the end:\n%s", c.Screen())
		}
	})
	return c
}

func (c *TUI) readLoop() {
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Pty.Read(buf)
		if n > 0 {
			c.Mu.Lock()
			c.Term.Write(buf[:n])
			c.raw = append(c.raw, buf[:n]...)
			c.Mu.Unlock()
			c.Bytes.Add(int64(n))
		}
		if err != nil {
			return
		}
	}
}

// Screen is the client's visible screen as text.
func (c *TUI) Screen() string {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Term.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text
}

// Type writes keys to the client.
func (c *TUI) Type(s string) {
	c.t.Helper()
	if _, err := c.Pty.Write([]byte(s)); err != nil {
		c.t.Fatalf("type %q: %v", s, err)
	}
}

// WaitScreen waits until the screen satisfies cond.
func (c *TUI) WaitScreen(t testing.TB, why string, cond func(screen string) bool) string {
	t.Helper()
	var last string
	if !Eventually(func() bool { last = c.Screen(); return cond(last) }) {
		t.Fatalf("timed out waiting for %s; screen:\n%s", why, last)
	}
	return last
}

// WaitText waits until the screen shows want.
func (c *TUI) WaitText(t testing.TB, want string) string {
	t.Helper()
	return c.WaitScreen(t, "the screen to show "+want, func(s string) bool { return strings.Contains(s, want) })
}

// Exited reports whether the client process ended.
func (c *TUI) Exited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// WaitExit waits for the client to end and returns its exit code.
func (c *TUI) WaitExit(t testing.TB) int {
	t.Helper()
	select {
	case <-c.exited:
	case <-time.After(WaitTimeout):
		t.Fatalf("client did not exit within %v; screen:\n%s", WaitTimeout, c.Screen())
	}
	var ee *exec.ExitError
	if errors.As(c.err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

// Settle waits until the client has written nothing for quiet.
func (c *TUI) Settle(t testing.TB, quiet time.Duration) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	last := c.Bytes.Load()
	for time.Now().Before(deadline) {
		time.Sleep(quiet) // measuring silence, not waiting for a condition
		if n := c.Bytes.Load(); n == last {
			return
		}
		last = c.Bytes.Load()
	}
	t.Fatalf("client output did not settle within %v", WaitTimeout)
}

// panes counts the pane frames (top-left corners) on the screen.
func FramedPanes(screen string) int { return strings.Count(screen, "╭") }

func SessionSnapshot(t testing.TB, s *Server) protocol.SessionSnapshot {
	t.Helper()
	return OK[protocol.SessionSnapshotResult](t, s.CallT(t, "session.snapshot", nil), "session_snapshot").Snapshot
}

// ShellReady types a marker and waits for the shell to echo its output, so
// later keys reach a shell that reads them.
func ShellReady(t testing.TB, c *TUI, marker string) {
	t.Helper()
	c.Type("echo " + marker + "-$((6*7))\r")
	c.WaitText(t, marker+"-42")
}

// SidebarRow is the first sidebar row (left of its border) containing want.
func SidebarRow(screen, want string) string {
	for _, l := range Lines(screen) {
		side, _, _ := strings.Cut(l, "│")
		if strings.Contains(side, want) {
			return side
		}
	}
	return ""
}
