package pane

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// foregroundGroup returns the PTY's foreground process group (tcgetpgrp on
// the master), or 0 when unknown.
func (p *Pane) foregroundGroup() int {
	if p.ptmx == nil || p.exited {
		return 0
	}
	pgrp, _ := p.ioctlInt(syscall.TIOCGPGRP)
	return pgrp
}

// ioctlInt runs an int-returning ioctl on the PTY master without switching
// the file to blocking mode (which os.File.Fd would do).
func (p *Pane) ioctlInt(req uintptr) (int, bool) {
	rc, err := p.ptmx.SyscallConn()
	if err != nil {
		return 0, false
	}
	var v int32
	ok := false
	rc.Control(func(fd uintptr) {
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(unsafe.Pointer(&v)))
		ok = errno == 0
	})
	return int(v), ok
}

// foregroundCwd is the working directory of the foreground group's leader.
func (p *Pane) foregroundCwd() string {
	pg := p.foregroundGroup()
	if pg <= 0 {
		return ""
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pg) + "/cwd")
	if err != nil {
		return ""
	}
	return cwd
}

// descendants walks the process tree below pid through /proc/PID/task/*/children.
func descendants(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out) && len(out) < 4096; i++ {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(out[i]) + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/" + strconv.Itoa(out[i]) + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(data)) {
				if c, err := strconv.Atoi(f); err == nil {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// procGroup reads the process group and name from /proc/PID/stat.
func procGroup(pid int) (pgrp int, name string, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	s := string(data)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return 0, "", false
	}
	fields := strings.Fields(s[closing+1:])
	if len(fields) < 3 {
		return 0, "", false
	}
	pgrp, err = strconv.Atoi(fields[2])
	return pgrp, s[open+1 : closing], err == nil
}

func describeProcess(pid int, name string) protocol.PaneProcessInfoProcess {
	proc := protocol.PaneProcessInfoProcess{PID: uint32(pid), Name: name}
	base := "/proc/" + strconv.Itoa(pid)
	if data, err := os.ReadFile(base + "/cmdline"); err == nil && len(data) > 0 {
		argv := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
		proc.Argv = argv
		proc.Argv0 = protocol.Ptr(argv[0])
		proc.Cmdline = protocol.Ptr(strings.Join(argv, " "))
	}
	if cwd, err := os.Readlink(base + "/cwd"); err == nil {
		proc.Cwd = protocol.Ptr(cwd)
	}
	return proc
}

func (p *Pane) processInfo(_ actor.Context, req *Request) *api.Reply {
	info := protocol.PaneProcessInfo{PaneID: req.PaneID}
	if p.cmd != nil && p.cmd.Process != nil && !p.exited {
		shell := p.cmd.Process.Pid
		info.ShellPID = protocol.Ptr(uint32(shell))
		if n, ok := p.ioctlInt(syscall.TIOCGPTN); ok {
			info.TTY = protocol.Ptr("/dev/pts/" + strconv.Itoa(n))
		}
		if pg := p.foregroundGroup(); pg > 0 {
			info.ForegroundProcessGroupID = protocol.Ptr(uint32(pg))
			for _, pid := range descendants(shell) {
				if group, name, ok := procGroup(pid); ok && group == pg {
					info.ForegroundProcesses = append(info.ForegroundProcesses, describeProcess(pid, name))
				}
			}
		}
	}
	return api.Done(protocol.PaneProcessInfoResult{ProcessInfo: info})
}
