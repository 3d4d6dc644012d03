package pane

import "log/slog"

// Leftover is one pane's terminal session as a previous server recorded
// it (see leftovers_unix.go).
type Leftover struct {
	Pid   int
	Start string
}

// EndLeftovers does nothing on Windows: a process's start cannot be
// proved there (procs.StartStamp is unknown, so nothing is recorded), and
// a pid alone never justifies ending a process. What a killed server's
// ConPTYs ran is left running.
func EndLeftovers([]Leftover, string, *slog.Logger) int { return 0 }
