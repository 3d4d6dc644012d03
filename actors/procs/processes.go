package procs

import "bytes"

// Table reads what agent detection and pane.process_info need to
// know about the processes on a terminal. Each platform has one
// (processes_linux.go: /proc; processes_darwin.go: sysctl and proc_info;
// processes_windows.go: a Toolhelp snapshot), chosen at build time as
// Host. Every method answers "unknown" (nil, "", false) rather
// than failing: a process may exit between two reads.
type Table interface {
	// Job lists the processes of the job group that descend from shell
	// (group as console.ForegroundGroup reports it).
	Job(shell, group int) []Entry
	// Argv is the process's argument vector.
	Argv(pid int) []string
	// Cwd is the process's working directory.
	Cwd(pid int) string
	// Env reads one variable of the process's environment.
	Env(pid int, key string) (string, bool)
	// Session lists the processes of the terminal session that sid leads,
	// whether or not sid itself is still alive.
	Session(sid int) []int
}

// Entry is one process of a job.
type Entry struct {
	PID  int
	Name string
}

// EnvLookup finds key in a NUL-separated environment block.
func EnvLookup(block []byte, key string) (string, bool) {
	prefix := []byte(key + "=")
	for len(block) > 0 {
		entry := block
		if i := bytes.IndexByte(block, 0); i >= 0 {
			entry, block = block[:i], block[i+1:]
		} else {
			block = nil
		}
		if bytes.HasPrefix(entry, prefix) {
			return string(entry[len(prefix):]), true
		}
	}
	return "", false
}

// Member is a live process of a terminal session (LiveSessions).
type Member struct {
	PID int
	// Attached: it still has a controlling terminal, so that terminal is
	// open somewhere. A terminal's hangup (its master closed: the server
	// that held it is gone) detaches every process of its session.
	Attached bool
}
