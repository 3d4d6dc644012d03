package procs

import (
	"os"
	"strconv"
	"strings"
)

// procfs reads /proc. It walks only the shell's descendants, never all of
// /proc, except for the final kill of a session.
type procfs struct{}

var Host Table = procfs{}

func procPath(pid int, name string) string { return "/proc/" + strconv.Itoa(pid) + "/" + name }

func (procfs) Job(shell, group int) []Entry {
	var out []Entry
	for _, pid := range descendants(shell) {
		if st, ok := readStat(pid); ok && st.pgrp == group {
			out = append(out, Entry{PID: pid, Name: st.name})
		}
	}
	return out
}

func (procfs) Argv(pid int) []string {
	data, err := os.ReadFile(procPath(pid, "cmdline"))
	if err != nil || len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
}

func (procfs) Cwd(pid int) string {
	cwd, _ := os.Readlink(procPath(pid, "cwd"))
	return cwd
}

func (procfs) Env(pid int, key string) (string, bool) {
	data, err := os.ReadFile(procPath(pid, "environ"))
	if err != nil {
		return "", false
	}
	return EnvLookup(data, key)
}

func (procfs) Session(sid int) []int { return walks.session(sid) }

var walks = &sessionWalks{walk: sessions}

// sessions lists the processes of each of sids, zombies included, in one
// pass over /proc.
func sessions(sids map[int]bool) map[int][]int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && sids[st.session] {
			out[st.session] = append(out[st.session], pid)
		}
	}
	return out
}

// descendants walks the process tree below pid through
// /proc/PID/task/*/children; pid comes first.
func descendants(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out) && len(out) < 4096; i++ {
		tasks, err := os.ReadDir(procPath(out[i], "task"))
		if err != nil {
			continue
		}
		for _, t := range tasks {
			data, err := os.ReadFile(procPath(out[i], "task/"+t.Name()+"/children"))
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

type procStat struct {
	name          string
	state         string // R, S, ... Z for a zombie
	pgrp, session int
	tty           string // the controlling terminal's device number, "0" for none
	// started is the start time in clock ticks after boot (field 22).
	started string
}

// readStat reads the name, state, process group, session and start time
// from /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile(procPath(pid, "stat"))
	if err != nil {
		return procStat{}, false
	}
	s := string(data)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return procStat{}, false
	}
	// After the name: state ppid pgrp session ... (fields[0] is field 3).
	fields := strings.Fields(s[closing+1:])
	if len(fields) < 20 {
		return procStat{}, false
	}
	pgrp, err1 := strconv.Atoi(fields[2])
	session, err2 := strconv.Atoi(fields[3])
	return procStat{name: s[open+1 : closing], state: fields[0], pgrp: pgrp, session: session, tty: fields[4], started: fields[19]}, err1 == nil && err2 == nil
}

// StartStamp is the boot's id and pid's start time in clock ticks after
// boot: a pid used again by a later process, in this boot or another, has
// another stamp. "" when pid does not exist.
func StartStamp(pid int) string {
	st, ok := readStat(pid)
	if !ok {
		return ""
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(boot)) + "/" + st.started
}

// LiveSessions lists the processes of each of sids, zombies left out (they
// have exited; only their parent can collect them), in one pass over /proc.
func LiveSessions(sids map[int]bool) map[int][]Member {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := map[int][]Member{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && sids[st.session] && st.state != "Z" && st.state != "X" {
			out[st.session] = append(out[st.session], Member{PID: pid, Attached: st.tty != "0"})
		}
	}
	return out
}
