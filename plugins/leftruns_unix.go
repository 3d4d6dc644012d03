//go:build unix

package plugins

import (
	"log/slog"
	"os"
	"syscall"

	"github.com/herdr-go/herdr/actors/procs"
)

const openNoFollow = syscall.O_NOFOLLOW

// recordsKept: a run's session leader and start stamp identify it after
// a crash.
const recordsKept = true

func startStamp(pid int) string { return procs.StartStamp(pid) }

// EndLeftRuns ends the plugin commands a server that died left running,
// from the records in dir, and removes the records; it returns how many
// processes it ended. A run is ours when its leader is alive with the
// start stamp recorded, or (the leader gone) when a process of its
// session carries the run's token: a pid used again by another program
// is never taken. Each run ended is logged at warn.
func EndLeftRuns(dir string, log *slog.Logger) int {
	ended := 0
	for path, rec := range readRecords(dir, log) {
		members := procs.LiveSessions(map[int]bool{rec.PID: true})[rec.PID]
		ours := procs.StartStamp(rec.PID) == rec.Start
		var pids []int
		for _, m := range members {
			if ours {
				pids = append(pids, m.PID)
			} else if tok, ok := procs.Host.Env(m.PID, RunTokenEnv); ok && tok == rec.Token {
				pids = append(pids, m.PID)
			}
		}
		if len(pids) > 0 {
			log.Warn("ending a plugin command a previous server left running", "argv", rec.Argv, "session", rec.PID, "processes", pids)
			_ = syscall.Kill(-rec.PID, syscall.SIGKILL) // the group it leads
			for _, pid := range pids {                  // and members that left the group
				if pid > 1 {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			ended += len(pids)
		}
		os.Remove(path)
	}
	return ended
}
