//go:build unix

package pane

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyConsole is a child in its own session with a PTY as its controlling
// terminal (creack/pty).
type ptyConsole struct {
	cmd  *exec.Cmd
	ptmx *os.File
	tty  string
}

func startConsole(s consoleSpec) (console, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	defer tty.Close() // the child holds its own copy
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(s.Cols), Rows: uint16(s.Rows)}); err != nil {
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
	return &ptyConsole{cmd: cmd, ptmx: ptmx, tty: tty.Name()}, nil
}

func (c *ptyConsole) Read(p []byte) (int, error)  { return c.ptmx.Read(p) }
func (c *ptyConsole) Write(p []byte) (int, error) { return c.ptmx.Write(p) }
func (c *ptyConsole) Pid() int                    { return c.cmd.Process.Pid }
func (c *ptyConsole) TTY() string                 { return c.tty }

func (c *ptyConsole) Resize(cols, rows int) error {
	return pty.Setsize(c.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
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

func (c *ptyConsole) Wait() int {
	err := c.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		return -1
	}
}

// Hangup signals the shell's process group and closes the master, which
// hangs up the terminal for every other job on it.
func (c *ptyConsole) Hangup() {
	pid := c.Pid()
	unix.Kill(-pid, unix.SIGHUP)
	unix.Kill(pid, unix.SIGHUP)
	c.ptmx.Close()
}

// Kill sends SIGKILL to every process group of the shell's session: jobs
// the shell started in groups of their own go too.
func (c *ptyConsole) Kill() {
	sid := c.Pid()
	unix.Kill(-sid, unix.SIGKILL)
	for _, pid := range hostProcesses.Session(sid) {
		if pgid, err := unix.Getpgid(pid); err == nil {
			unix.Kill(-pgid, unix.SIGKILL)
		}
		unix.Kill(pid, unix.SIGKILL)
	}
}
