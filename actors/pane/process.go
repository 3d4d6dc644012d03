package pane

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/protocol"
)

// running reports whether the pane's child is still there to ask about.
func (p *Pane) running() bool { return p.con != nil && !p.exited }

// foregroundGroup is the job that owns the terminal now, or 0 when unknown.
func (p *Pane) foregroundGroup() int {
	if !p.running() {
		return 0
	}
	return p.con.ForegroundGroup()
}

// foregroundJob lists the processes of the foreground job.
func (p *Pane) foregroundJob() (group int, job []procs.Entry) {
	if group = p.foregroundGroup(); group > 0 {
		job = procs.Host.Job(p.con.Pid(), group)
	}
	return group, job
}

func describeProcess(e procs.Entry) protocol.PaneProcessInfoProcess {
	proc := protocol.PaneProcessInfoProcess{PID: uint32(e.PID), Name: e.Name}
	if argv := procs.Host.Argv(e.PID); len(argv) > 0 {
		proc.Argv = argv
		proc.Argv0 = protocol.Ptr(argv[0])
		proc.Cmdline = protocol.Ptr(strings.Join(argv, " "))
	}
	if cwd := procs.Host.Cwd(e.PID); cwd != "" {
		proc.Cwd = protocol.Ptr(cwd)
	}
	return proc
}

func (p *Pane) processInfo(_ actor.Context, req *Request) *api.Reply {
	info := protocol.PaneProcessInfo{PaneID: req.PaneID}
	if p.running() {
		info.ShellPID = protocol.Ptr(uint32(p.con.Pid()))
		if tty := p.con.TTY(); tty != "" {
			info.TTY = protocol.Ptr(tty)
		}
		if group, job := p.foregroundJob(); group > 0 {
			info.ForegroundProcessGroupID = protocol.Ptr(uint32(group))
			for _, e := range job {
				info.ForegroundProcesses = append(info.ForegroundProcesses, describeProcess(e))
			}
		}
	}
	return api.Done(protocol.PaneProcessInfoResult{ProcessInfo: info})
}
