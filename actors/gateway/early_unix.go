//go:build unix

package gateway

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// readNow reads what the client has already written, without waiting
// (MSG_DONTWAIT, whatever the socket's mode): a client that connects and
// writes its request at once usually has it there by the time it is
// accepted. errNotYet when nothing is there or c is no socket.
func readNow(c net.Conn, p []byte) (int, error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0, errNotYet
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, errNotYet
	}
	n := 0
	_ = rc.Read(func(fd uintptr) bool {
		if m, _, err := unix.Recvfrom(int(fd), p, unix.MSG_DONTWAIT); err == nil && m > 0 {
			n = m
		}
		return true // done either way: never wait for readiness
	})
	if n == 0 {
		return 0, errNotYet
	}
	return n, nil
}
