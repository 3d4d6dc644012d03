//go:build unix

package pane

import (
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/emulator"
)

// ptyConsole is a child in its own session with a PTY as its controlling
// terminal (creack/pty).
type ptyConsole struct {
	pid    int
	ptmx   *os.File
	tty    string
	exited *exitNote
	// reaped is set once the child is collected: from then on its pid may
	// belong to an unrelated process, and no signal may be sent to it.
	reaped atomic.Bool
	pixels bool // consoleSpec.Pixels
}

// winsize is cols×rows, in pixels too when pixels is set.
func winsize(cols, rows int, pixels bool) *unix.Winsize {
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if pixels {
		cw, ch := emulator.CellPixels()
		ws.Xpixel, ws.Ypixel = uint16(min(cols*cw, 0xffff)), uint16(min(rows*ch, 0xffff))
	}
	return ws
}

func startConsole(s consoleSpec) (console, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	defer tty.Close() // the child holds its own copy
	ws := winsize(s.Cols, s.Rows, s.Pixels)
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: ws.Col, Rows: ws.Row, X: ws.Xpixel, Y: ws.Ypixel}); err != nil {
		ptmx.Close()
		return nil, err
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		ptmx.Close()
		return nil, err
	}
	pid := cmd.Process.Pid
	// The reaper collects the child by its pid: the handle os/exec keeps
	// (a pidfd) would be one more descriptor per pane, copied into the
	// descriptor table of every later child as it starts.
	cmd.Process.Release()
	return &ptyConsole{pid: pid, ptmx: pollable(ptmx), tty: tty.Name(), exited: s.reaper.exitOf(pid), pixels: s.Pixels}, nil
}

// pollable returns the master as a non-blocking file the runtime's poller
// waits on, so an idle pane's reader holds no OS thread (creack/pty's
// ioctls go through Fd, which leaves the file blocking: one thread per
// pane). Where the poller cannot take it, the file still works, blocking.
func pollable(ptmx *os.File) *os.File {
	// Close-on-exec in the same call: a Dup marked after would leak this
	// master into a pane another goroutine starts in between.
	fd, err := unix.FcntlInt(ptmx.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return ptmx
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return ptmx
	}
	ptmx.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx")
}

// ReadBlock reads through the raw descriptor so that a block is taken from
// the pool only when a read is about to succeed: while the terminal is
// quiet the reader is parked on the poller with nothing in hand (an
// os.File Read would hold its buffer for as long as it waits). A deadline
// (pauseReads) or Hangup's Close ends the wait with an error.
func (c *ptyConsole) ReadBlock(admit func() (done func())) ([]byte, error) {
	rc, err := c.ptmx.SyscallConn()
	if err != nil {
		return nil, err
	}
	var b []byte
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		done := admit()
		b = getBlock()
		n, rerr = readRetrying(int(fd), b[:cap(b)])
		// With a read turn (the pane floods), read on while the program has
		// more, so the turn passes once per block rather than per 4 KiB
		// (a PTY read rarely gives more); the next read reports an error.
		for done != nil && rerr == nil && n > 0 && cap(b)-n >= 4<<10 {
			m, err := readRetrying(int(fd), b[n:cap(b)])
			if err != nil || m <= 0 {
				break
			}
			n += m
		}
		if done != nil {
			done()
		}
		if rerr == unix.EAGAIN {
			putBlock(b)
			b = nil
			return false // wait on the poller, then try again
		}
		return true
	})
	switch {
	case err != nil: // b is nil: the wait itself failed
		return nil, err
	case rerr != nil:
		putBlock(b)
		return nil, os.NewSyscallError("read", rerr)
	case n <= 0:
		putBlock(b)
		return nil, io.EOF
	}
	return b[:n], nil
}

// readRetrying reads fd once, again if a signal interrupted it.
func readRetrying(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}

func (c *ptyConsole) Write(p []byte) (int, error) { return c.ptmx.Write(p) }

func (c *ptyConsole) Pid() int    { return c.pid }
func (c *ptyConsole) TTY() string { return c.tty }

// TryWrite writes to the non-blocking master once: a full terminal
// (EAGAIN) takes nothing, and the caller queues the rest.
func (c *ptyConsole) TryWrite(p []byte) int {
	rc, err := c.ptmx.SyscallConn()
	if err != nil {
		return 0
	}
	return kit.WriteNow(rc, p)
}

// Resize sets the window size through SyscallConn: Fd would make the
// master blocking again.
func (c *ptyConsole) Resize(cols, rows int) error {
	rc, err := c.ptmx.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, winsize(cols, rows, c.pixels))
	}); err != nil {
		return err
	}
	return ioErr
}

// ForegroundGroup is tcgetpgrp on the master. It goes through SyscallConn
// because os.File.Fd would switch the master to blocking mode.
func (c *ptyConsole) ForegroundGroup() int {
	rc, err := c.ptmx.SyscallConn()
	if err != nil {
		return 0
	}
	pgrp := 0
	rc.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP); err == nil {
			pgrp = v
		}
	})
	return pgrp
}

// Wait takes the exit from the shared reaper (no thread blocked per pane)
// and releases the process handle os/exec keeps.
func (c *ptyConsole) Wait() int {
	code := c.exited.wait()
	c.collected()
	return code
}

// OnExit runs fn with the exit code on the reaper's goroutine (or the
// watcher's, for an adopted program) once the child has gone.
func (c *ptyConsole) OnExit(fn func(code int)) {
	c.exited.onExit(func(code int) {
		c.collected()
		fn(code)
	})
}

// Exited implements console: the exit note's, closed when the reaper (or
// the watcher) delivers the exit.
func (c *ptyConsole) Exited() <-chan struct{} { return c.exited.done }

// collected marks the child reaped.
func (c *ptyConsole) collected() { c.reaped.Store(true) }

// Hangup signals the shell's process group and closes the master, which
// hangs up the terminal for every other job on it.
func (c *ptyConsole) Hangup() {
	c.signal(unix.SIGHUP)
	c.ptmx.Close()
}

// signal sends sig to the shell and its process group while the shell is
// not yet reaped. A pid of 1 or less would reach init or every process of
// ours (kill(-1)): never.
func (c *ptyConsole) signal(sig unix.Signal) bool {
	if c.pid <= 1 || c.reaped.Load() {
		return false
	}
	select {
	case <-c.exited.done: // delivered: reaped, its callbacks may not have run yet
		return false
	default:
	}
	unix.Kill(-c.pid, sig)
	unix.Kill(c.pid, sig)
	return true
}

// Kill sends SIGKILL to every process group of the shell's session: jobs
// the shell started in groups of their own go too.
//
// Once the shell is reaped only the members found by their session id are
// signalled: the kernel does not reuse a pid while a live process still
// has it as its session or group id, so those ids are still ours.
func (c *ptyConsole) Kill() {
	c.signal(unix.SIGKILL)
	for _, pid := range procs.Host.Session(c.pid) {
		if pgid, err := unix.Getpgid(pid); err == nil && pgid > 1 {
			unix.Kill(-pgid, unix.SIGKILL)
		}
		if pid > 1 {
			unix.Kill(pid, unix.SIGKILL)
		}
	}
}

func (c *ptyConsole) Lingering() bool {
	return c.pid > 1 && len(procs.Host.Session(c.pid)) > 0
}
