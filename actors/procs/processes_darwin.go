package procs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysctlProcs reads process facts on macOS, which has no /proc: kern.proc
// sysctls for groups and names, kern.procargs2 for argv and environment,
// and the proc_info call for the working directory.
type sysctlProcs struct{}

var Host Table = sysctlProcs{}

// Every member of the terminal's foreground group is in the pane's session
// (a process group never spans sessions), so the group is the job.
func (sysctlProcs) Job(_, group int) []Entry {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", group)
	if err != nil {
		return nil
	}
	out := make([]Entry, 0, len(kps))
	for i := range kps {
		out = append(out, Entry{PID: int(kps[i].Proc.P_pid), Name: cString(kps[i].Proc.P_comm[:])})
	}
	return out
}

func (sysctlProcs) Argv(pid int) []string {
	argv, _ := procArgs(pid)
	return argv
}

func (sysctlProcs) Env(pid int, key string) (string, bool) {
	_, env := procArgs(pid)
	return EnvLookup(env, key)
}

// proc_info(PROC_INFO_CALL_PIDINFO, pid, PROC_PIDVNODEPATHINFO) fills a
// proc_vnodepathinfo: the current directory's vnode_info (152 bytes) and
// its path (MAXPATHLEN), then the same for the root directory.
const (
	procInfoCallPidinfo  = 2
	procPidVnodePathInfo = 9
	vnodeInfoSize        = 152
	maxPathLen           = 1024
)

func (sysctlProcs) Cwd(pid int) string {
	var buf [2 * (vnodeInfoSize + maxPathLen)]byte
	// x/sys has no wrapper for libproc's proc_pidinfo, and calling libSystem
	// directly needs cgo, which cross-builds do not have; the proc_info
	// system call behind it has been stable since macOS 10.5.
	//lint:ignore SA1019 no libSystem wrapper exists for proc_pidinfo
	n, _, errno := unix.Syscall6(unix.SYS_PROC_INFO, procInfoCallPidinfo, uintptr(pid), procPidVnodePathInfo, 0,
		uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	if errno != 0 || int(n) < vnodeInfoSize+maxPathLen {
		return ""
	}
	return cString(buf[vnodeInfoSize : vnodeInfoSize+maxPathLen])
}

func (sysctlProcs) Session(sid int) []int { return walks.session(sid) }

var walks = &sessionWalks{walk: sessions}

// sessions lists the processes of each of sids, in one kern.proc.all.
func sessions(sids map[int]bool) map[int][]int {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	out := map[int][]int{}
	for i := range kps {
		pid := int(kps[i].Proc.P_pid)
		if s, err := unix.Getsid(pid); err == nil && sids[s] {
			out[s] = append(out[s], pid)
		}
	}
	return out
}

// procArgs reads kern.procargs2: argc (int32), the executable path, NUL
// padding, argc arguments, then the environment, each NUL-terminated.
func procArgs(pid int) (argv []string, env []byte) {
	data, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(data) < 4 {
		return nil, nil
	}
	argc := int(binary.LittleEndian.Uint32(data))
	rest := data[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, nil
	}
	rest = bytes.TrimLeft(rest[i:], "\x00")
	for len(argv) < argc && len(rest) > 0 {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			j = len(rest)
		}
		argv = append(argv, string(rest[:j]))
		rest = rest[min(j+1, len(rest)):]
	}
	return argv, rest
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// StartStamp is pid's start time, to the microsecond, as the kernel keeps
// it (absolute, so it tells boots apart too): a pid used again by a later
// process has another stamp. "" when pid does not exist.
func StartStamp(pid int) string {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(kp.Proc.P_pid) != pid {
		return ""
	}
	t := kp.Proc.P_starttime
	return fmt.Sprintf("%d.%06d", t.Sec, t.Usec)
}

// sZomb is p_stat of a zombie (sys/proc.h).
const sZomb = 5

// noDev is e_tdev of a process without a controlling terminal.
const noDev = -1

// LiveSessions lists the processes of each of sids, zombies left out, from
// one kern.proc.all.
func LiveSessions(sids map[int]bool) map[int][]Member {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	out := map[int][]Member{}
	for i := range kps {
		pid := int(kps[i].Proc.P_pid)
		if kps[i].Proc.P_stat == sZomb {
			continue
		}
		if sid, err := unix.Getsid(pid); err == nil && sids[sid] {
			out[sid] = append(out[sid], Member{PID: pid, Attached: kps[i].Eproc.Tdev != noDev})
		}
	}
	return out
}
