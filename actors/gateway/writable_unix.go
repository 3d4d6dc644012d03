//go:build unix

package gateway

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// socketWritable reports whether the socket would take more now: a
// client that does not read keeps it full (on Linux a Unix socket is
// writable while under a quarter of its send buffer waits for the peer).
// A connection without a descriptor counts as writable.
func socketWritable(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return true
	}
	writable := true
	_ = rc.Control(func(fd uintptr) {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		if n, err := unix.Poll(p, 0); err == nil {
			writable = n > 0 && p[0].Revents&unix.POLLOUT != 0
		}
	})
	return writable
}
