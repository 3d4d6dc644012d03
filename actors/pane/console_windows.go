package pane

import (
	"os/exec"
	"syscall"

	"github.com/charmbracelet/x/conpty"
	"golang.org/x/sys/windows"

	"github.com/herdr-go/herdr/actors/procs"
)

// conConsole is a child attached to a Windows pseudo-console (ConPTY).
type conConsole struct {
	cpty   *conpty.ConPty
	pid    int
	handle windows.Handle
	done   chan struct{} // closed by OnExit's goroutine once the shell exited
}

func startConsole(s consoleSpec) (console, error) {
	path, err := exec.LookPath(s.Argv[0])
	if err != nil {
		return nil, err
	}
	c, err := conpty.New(s.Cols, s.Rows, 0)
	if err != nil {
		return nil, err
	}
	pid, handle, err := c.Spawn(path, s.Argv, &syscall.ProcAttr{Dir: s.Dir, Env: s.Env})
	if err != nil {
		c.Close()
		return nil, err
	}
	return &conConsole{cpty: c, pid: pid, handle: windows.Handle(handle), done: make(chan struct{})}, nil
}

// ReadBlock holds its block while it waits: a ConPTY read blocks, so it
// takes no read turn (holding one across the wait would stall every other
// flooding pane behind a quiet one).
func (c *conConsole) ReadBlock(func() func()) ([]byte, error) {
	for {
		b := getBlock()
		n, err := c.cpty.Read(b[:cap(b)])
		if n > 0 {
			return b[:n], err
		}
		putBlock(b)
		if err != nil {
			return nil, err
		}
	}
}

func (c *conConsole) Write(p []byte) (int, error) { return c.cpty.Write(p) }

// TryWrite takes nothing: a ConPTY pipe write may block, so all input goes
// through the pane's writer.
func (c *conConsole) TryWrite(p []byte) int       { return 0 }
func (c *conConsole) Resize(cols, rows int) error { return c.cpty.Resize(cols, rows) }
func (c *conConsole) Pid() int                    { return c.pid }
func (c *conConsole) TTY() string                 { return "" }

// ForegroundGroup is the shell's most recently started child (what the
// shell runs now), or the shell itself when it runs nothing: the closest
// Windows has to a foreground job.
func (c *conConsole) ForegroundGroup() int {
	front, newest := c.pid, int64(-1)
	for _, child := range procs.Children(c.pid) {
		if t := startTime(child); t > newest {
			front, newest = child, t
		}
	}
	return front
}

// startTime is the process's creation time in 100 ns ticks, 0 if unknown.
func startTime(pid int) int64 {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil {
		return 0
	}
	return int64(created.HighDateTime)<<32 | int64(created.LowDateTime)
}

// OnExit waits on a goroutine of its own: Windows has no shared reaper.
func (c *conConsole) OnExit(fn func(code int)) {
	go func() {
		code := c.Wait()
		close(c.done)
		fn(code)
	}()
}

// Exited implements console: closed once OnExit's goroutine saw the exit.
func (c *conConsole) Exited() <-chan struct{} { return c.done }

func (c *conConsole) Wait() int {
	windows.WaitForSingleObject(c.handle, windows.INFINITE)
	var code uint32
	if err := windows.GetExitCodeProcess(c.handle, &code); err != nil {
		return -1
	}
	windows.CloseHandle(c.handle)
	return int(code)
}

// Hangup closes the pseudo-console: its programs get CTRL_CLOSE_EVENT, as
// when a console window closes, and reads end.
func (c *conConsole) Hangup() { c.cpty.Close() }

// Kill terminates the shell and every process below it.
func (c *conConsole) Kill() {
	for _, pid := range procs.Host.Session(c.pid) {
		if h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid)); err == nil {
			windows.TerminateProcess(h, 1)
			windows.CloseHandle(h)
		}
	}
}

func (c *conConsole) Lingering() bool { return len(procs.Host.Session(c.pid)) > 0 }
