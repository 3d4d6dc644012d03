// Package procs reads facts about the processes on a terminal — the
// foreground job, argv, working directory, one environment variable, the
// members of a terminal session — for agent detection, pane.process_info
// and the final kill of a pane's processes; and a process's start stamp
// with the live members of sessions (StartStamp, LiveSessions), by which a
// server ends what a killed one left running. Host is the running platform's
// Table: /proc on Linux, sysctl and proc_info on macOS, a Toolhelp
// snapshot on Windows.
package procs
