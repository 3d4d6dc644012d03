// Package procs reads facts about the processes on a terminal — the
// foreground job, argv, working directory, one environment variable, the
// members of a terminal session — for agent detection, pane.process_info
// and the final kill of a pane's processes; and a process's start stamp
// with the live members of sessions (StartStamp, LiveSessions), by which a
// server ends what a killed one left running. Host is the running platform's
// Table: /proc on Linux, sysctl and proc_info on macOS, a Toolhelp
// snapshot on Windows. Session walks the whole table; the calls that wait
// at once share one walk begun after each of them (batch.go), so a server
// stopping thousands of panes walks it a few times, not once per pane.
package procs
