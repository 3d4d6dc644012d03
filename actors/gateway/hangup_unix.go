//go:build unix

package gateway

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// peerGone reports whether the client closed its whole connection (not just
// its writing half), so nobody is left to read an answer.
func peerGone(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	gone := false
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		if n, err := unix.Poll(fds, 0); err == nil && n > 0 {
			gone = fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
		}
	})
	return gone
}
