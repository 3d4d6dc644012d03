//go:build unix

package e2e

import (
	"syscall"
)

// processAlive reports an error unless pid is a live process.
func processAlive(pid int) error { return syscall.Kill(pid, 0) }
