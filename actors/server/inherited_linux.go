package server

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeInheritedOnExec marks every descriptor from 3 up close-on-exec.
// Go opens its own that way, but those the server inherited (a pipe end
// of the shell or make that started it) are not, and every pane, plugin
// and git command would get a copy, keeping the pipe open for as long as
// any of them runs. They stay open in the server itself: a live handoff's
// socket (HERDR_HANDOFF_FD) is read here.
func closeInheritedOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Before Linux 5.11: each open descriptor, as /proc lists them.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= 3 {
			unix.CloseOnExec(fd)
		}
	}
}
