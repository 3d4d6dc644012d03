//go:build unix

package plugins

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the command in a process group of its own, and makes the
// timeout kill that whole group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if p := cmd.Process; p != nil && p.Pid > 1 {
			return syscall.Kill(-p.Pid, syscall.SIGKILL)
		}
		return nil
	}
}
