//go:build unix

package plugins

import (
	"os"
	"os/exec"
	"syscall"
)

// group is a command's process group: the command leads it, and the
// session it is in (so a server after a crash finds every process of it,
// even one that made a group of its own: EndLeftRuns).
type group struct{ pgid int }

// newGroup makes cmd start a session, and so a process group, of its own.
func newGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return &group{}
}

func (g *group) attach(p *os.Process) { g.pgid = p.Pid }

// kill kills every process in the group. Once the leader is reaped its
// pid names the group only while a member lives, which is when there is
// something to kill.
func (g *group) kill() {
	if g.pgid > 1 {
		_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	}
}

func (g *group) close() {}
