//go:build unix

package tests

import (
	"syscall"
	"testing"
)

// requireUnixShell is a no-op where /bin/sh panes can run.
func requireUnixShell(testing.TB) {}

// processAlive reports an error unless pid is a live process.
func processAlive(pid int) error { return syscall.Kill(pid, 0) }
