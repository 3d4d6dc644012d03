//go:build unix

package gateway

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// earlyBytes reads into buf what the client has already written, without
// waiting (MSG_DONTWAIT, whatever the socket's mode): a client that
// connects and writes its request at once usually has it there by the
// time it is accepted. Zero when nothing is there or c is no socket.
func earlyBytes(c net.Conn, buf []byte) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Read(func(fd uintptr) bool {
		if m, _, err := unix.Recvfrom(int(fd), buf, unix.MSG_DONTWAIT); err == nil && m > 0 {
			n = m
		}
		return true // done either way: never wait for readiness
	})
	return n
}
