//go:build unix

package plugins

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/protocol"
)

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

// maxRecordBytes bounds a record read back: ours are a few hundred bytes.
const maxRecordBytes = 64 << 10

// readRecords reads every record of dir; one that cannot be read as a
// record is removed, with a warning.
func readRecords(dir string, log *slog.Logger) map[string]runRecord {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]runRecord{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".run") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var rec runRecord
		if err := readRecord(path, &rec); err != nil {
			log.Warn("plugin run record unreadable: removed", "path", path, "err", err)
			os.Remove(path)
			continue
		}
		out[path] = rec
	}
	return out
}

func readRecord(path string, rec *runRecord) error {
	b, err := protocol.ReadRegularFile(path, maxRecordBytes)
	if err != nil {
		return err
	}
	if err := protocol.Unmarshal(b, rec); err != nil {
		return err
	}
	if rec.PID <= 1 || rec.Start == "" || rec.Token == "" {
		return os.ErrInvalid
	}
	return nil
}
