//go:build unix

package server

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether a process pid exists (one of another user
// counts: signal 0 is refused, not unanswered).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe reports whether path belongs to this process's user.
func ownedByMe(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
