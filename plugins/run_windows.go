package plugins

import (
	"os"
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is a command's job object: the processes it starts join it, and
// closing it kills whatever is left. Without one (the job could not be
// made) only the command itself is killed.
type group struct {
	job  windows.Handle
	proc *os.Process
}

func newGroup(*exec.Cmd) *group {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return &group{}
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return &group{}
	}
	return &group{job: job}
}

// attach puts the started command in the job; what it started before
// that (a moment) stays outside.
func (g *group) attach(p *os.Process) {
	g.proc = p
	if g.job == 0 {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	_ = windows.AssignProcessToJobObject(g.job, h)
}

func (g *group) kill() {
	if g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
	} else if g.proc != nil {
		_ = g.proc.Kill()
	}
}

func (g *group) close() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
	}
}
