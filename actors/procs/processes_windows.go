package procs

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// toolhelpProcs reads process facts on Windows from a Toolhelp snapshot of
// the process table (parents and executable names) and, for argv, the
// process's command line. Windows has no process groups: the "job" in
// front is the shell's newest child with its descendants (see
// conConsole.ForegroundGroup). A process's working directory and
// environment live in its memory and are not read: Cwd and Env answer
// unknown.
type toolhelpProcs struct{}

var Host Table = toolhelpProcs{}

type procRow struct {
	pid, parent int
	name        string
}

// snapshot lists every process; nil when the snapshot fails.
func snapshot() []procRow {
	h, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(h)
	var rows []procRow
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(h, &e); err == nil; err = windows.Process32Next(h, &e) {
		rows = append(rows, procRow{pid: int(e.ProcessID), parent: int(e.ParentProcessID), name: windows.UTF16ToString(e.ExeFile[:])})
	}
	return rows
}

// tree returns root and its descendants, root first.
func tree(rows []procRow, root int) []procRow {
	var out []procRow
	for _, r := range rows {
		if r.pid == root {
			out = append(out, r)
		}
	}
	for i := 0; i < len(out) && len(out) < 4096; i++ {
		for _, r := range rows {
			if r.parent == out[i].pid && r.pid != r.parent {
				out = append(out, r)
			}
		}
	}
	return out
}

func (toolhelpProcs) Job(_, group int) []Entry {
	var out []Entry
	for _, r := range tree(snapshot(), group) {
		out = append(out, Entry{PID: r.pid, Name: r.name})
	}
	return out
}

func (toolhelpProcs) Argv(pid int) []string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(h)
	buf := make([]byte, 64<<10)
	var n uint32
	if windows.NtQueryInformationProcess(h, windows.ProcessCommandLineInformation, unsafe.Pointer(&buf[0]), uint32(len(buf)), &n) != nil {
		return nil
	}
	line := (*windows.NTUnicodeString)(unsafe.Pointer(&buf[0])).String()
	argv, err := windows.DecomposeCommandLine(line)
	if err != nil {
		return nil
	}
	return argv
}

func (toolhelpProcs) Cwd(int) string                 { return "" }
func (toolhelpProcs) Env(int, string) (string, bool) { return "", false }

// Session is the process tree under sid: Windows has no terminal sessions.
func (toolhelpProcs) Session(sid int) []int { return walks.session(sid) }

var walks = &sessionWalks{walk: trees}

// trees lists the process tree under each of roots, from one snapshot.
func trees(roots map[int]bool) map[int][]int {
	all := snapshot()
	out := map[int][]int{}
	for root := range roots {
		for _, r := range tree(all, root) {
			out[root] = append(out[root], r.pid)
		}
	}
	return out
}

// Children lists pid's direct children (Windows has no process groups: the
// console picks the job in front among them).
func Children(pid int) []int {
	var out []int
	for _, r := range snapshot() {
		if r.parent == pid && r.pid != pid {
			out = append(out, r.pid)
		}
	}
	return out
}

// StartStamp is unknown on Windows (""): nothing left by a server is ended
// on the strength of a pid alone.
func StartStamp(int) string { return "" }

// LiveSessions: Windows has no terminal sessions to list.
func LiveSessions(map[int]bool) map[int][]Member { return nil }
