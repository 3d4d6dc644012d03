package server

import "golang.org/x/sys/unix"

// fdDir lists the process's open descriptors.
const fdDir = "/proc/self/fd"

// closeInheritedOnExec marks every descriptor from 3 up close-on-exec.
// Go opens its own that way, but those the server inherited (a pipe end
// of the shell or make that started it) are not, and every pane, plugin
// and git command would get a copy, keeping the pipe open for as long as
// any of them runs. They stay open in the server itself: a live handoff's
// socket (HERDR_HANDOFF_FD) is read here.
func closeInheritedOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) != nil {
		markListedOnExec(fdDir) // before Linux 5.11
	}
}
