package pane

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
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

// foregroundCwd is the working directory of the foreground job's leader.
func (p *Pane) foregroundCwd() string {
	if pg := p.foregroundGroup(); pg > 0 {
		return hostProcesses.Cwd(pg)
	}
	return ""
}

// foregroundJob lists the processes of the foreground job.
func (p *Pane) foregroundJob() (group int, procs []procEntry) {
	if group = p.foregroundGroup(); group > 0 {
		procs = hostProcesses.Job(p.con.Pid(), group)
	}
	return group, procs
}

func describeProcess(e procEntry) protocol.PaneProcessInfoProcess {
	proc := protocol.PaneProcessInfoProcess{PID: uint32(e.PID), Name: e.Name}
	if argv := hostProcesses.Argv(e.PID); len(argv) > 0 {
		proc.Argv = argv
		proc.Argv0 = protocol.Ptr(argv[0])
		proc.Cmdline = protocol.Ptr(strings.Join(argv, " "))
	}
	if cwd := hostProcesses.Cwd(e.PID); cwd != "" {
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
		if group, procs := p.foregroundJob(); group > 0 {
			info.ForegroundProcessGroupID = protocol.Ptr(uint32(group))
			for _, e := range procs {
				info.ForegroundProcesses = append(info.ForegroundProcesses, describeProcess(e))
			}
		}
	}
	return api.Done(protocol.PaneProcessInfoResult{ProcessInfo: info})
}
