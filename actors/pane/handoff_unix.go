//go:build unix

package pane

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// masterFD is the master's descriptor number, for SCM_RIGHTS. Going
// through SyscallConn keeps the file non-blocking (Fd would not).
func (c *ptyConsole) masterFD() (int, error) {
	rc, err := c.ptmx.SyscallConn()
	if err != nil {
		return 0, err
	}
	fd := -1
	if err := rc.Control(func(f uintptr) { fd = int(f) }); err != nil {
		return 0, err
	}
	return fd, nil
}

// adoptConsole wraps a terminal another process handed over. Its program
// is not our child, so its exit is watched, not waited for.
func adoptConsole(a Adoption) (console, error) {
	if a.Master == nil || a.Pid <= 1 {
		return nil, fmt.Errorf("adopted terminal without a master or a program")
	}
	return &ptyConsole{pid: a.Pid, ptmx: pollable(a.Master), tty: a.TTY, exited: watchExit(a.Pid)}, nil
}

// watchExit reports the exit of a process that is not our child: it looks
// every exitPoll, on a goroutine that holds no thread while it sleeps.
func watchExit(pid int) *exitNote {
	n := newExitNote()
	go func() {
		for {
			if gone, code := processGone(pid); gone {
				n.deliver(code)
				return
			}
			time.Sleep(exitPoll)
		}
	}()
	return n
}

// exitPoll is how often an adopted program's exit is looked for.
const exitPoll = 200 * time.Millisecond

// processGone reports whether pid has exited (or is a zombie nobody has
// collected yet) and, when the platform tells, its exit code (else -1).
func processGone(pid int) (bool, int) {
	if err := unix.Kill(pid, 0); err == unix.ESRCH {
		return true, -1
	}
	return zombie(pid)
}
