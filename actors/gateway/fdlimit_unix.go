//go:build !windows

package gateway

import (
	"errors"
	"syscall"
)

// fdLimit returns the process's open-file limit (the soft RLIMIT_NOFILE,
// which Go raises to the hard limit at start-up).
func fdLimit() (n int, limited bool) {
	var rl syscall.Rlimit
	// Past 1<<30 (RLIM_INFINITY included) the limit is not worth budgeting.
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0, false
	}
	return int(rl.Cur), true
}

// outOfFDs reports whether an accept failed for want of a file descriptor.
func outOfFDs(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
