//go:build !windows

package web

import "syscall"

// fdLimit returns the process's open-file limit (the soft RLIMIT_NOFILE,
// which Go raises to the hard limit at start-up); past 1<<30 it is no
// limit worth budgeting.
func fdLimit() (n int, limited bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0, false
	}
	return int(rl.Cur), true
}
