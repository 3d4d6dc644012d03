package pane

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readNow reads the poller's non-blocking terminal descriptor once (again
// if a signal interrupted it) without telling the scheduler of a system
// call: such a read never waits for output, and a flood makes thousands
// of them a second, each of which the runtime's monitor (sysmon)
// otherwise watched and, past 20 µs, handed the goroutine's processor to
// another thread for, waking threads for nothing. Only for descriptors in
// non-blocking mode, and only for the reads a flood goes on with
// (readOnce): the read after a readiness stays an ordinary system call, so
// the pane's parser, just rung onto this processor, is handed on if the
// kernel makes the read wait (a PTY read may wait for the kernel to move
// the program's output along), which measured better for `seq`'s small
// reads.
func readNow(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, _, e := syscall.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		switch {
		case e == 0:
			return int(n), nil
		case e != unix.EINTR:
			return -1, e
		}
	}
}
