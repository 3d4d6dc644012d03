//go:build unix

package main

import "syscall"

// ownCPU is this process's user and system CPU seconds so far (the
// command's, a child, not included): the reader's and emulator's cost,
// which the machine's load moves less than the elapsed time.
func ownCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
