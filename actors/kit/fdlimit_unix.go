//go:build !windows

package kit

import "syscall"

// FDLimit returns the process's open-file limit (the soft RLIMIT_NOFILE,
// which Go raises to the hard limit at start-up), the budget the socket
// gateway and the dashboard size their connection caps from.
func FDLimit() (n int, limited bool) {
	var rl syscall.Rlimit
	// Past 1<<30 (RLIM_INFINITY included) the limit is not worth budgeting.
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0, false
	}
	return int(rl.Cur), true
}
