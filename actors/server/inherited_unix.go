//go:build unix

package server

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// markListedOnExec marks close-on-exec every descriptor from 3 up that
// dir (/proc/self/fd, /dev/fd) lists.
func markListedOnExec(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= 3 {
			unix.CloseOnExec(fd)
		}
	}
}
