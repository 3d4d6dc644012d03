//go:build linux || darwin

package gateway

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

var newline = []byte{'\n'}

// tryWrite writes line and its newline to the socket once, without
// waiting (the descriptor is non-blocking), and returns how many of those
// len(line)+1 bytes it took: 0 when the socket is full, on an error (the
// writer then meets it) or where the connection has no descriptor.
func tryWrite(c net.Conn, line []byte) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	n, total := 0, len(line)+1
	rc.Write(func(fd uintptr) bool {
		for n < total {
			var m int
			var err error
			if n < len(line) {
				m, err = unix.Writev(int(fd), [][]byte{line[n:], newline})
			} else {
				m, err = unix.Write(int(fd), newline)
			}
			if err == unix.EINTR {
				continue
			}
			if err != nil || m <= 0 {
				break
			}
			n += m
		}
		return true // never wait on the poller: that is the writer's job
	})
	return n
}
