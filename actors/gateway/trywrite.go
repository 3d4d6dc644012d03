package gateway

import (
	"net"
	"syscall"

	"github.com/herdr-go/herdr/actors/kit"
)

var newline = []byte{'\n'}

// tryWrite writes bufs (lines and their newlines) to the socket at once,
// without waiting, and returns how many of their bytes it took: 0
// when the socket is full, on an error (the writer then meets it), where
// the connection has no descriptor, or on a platform without non-blocking
// writes (a Windows named pipe).
func tryWrite(c net.Conn, bufs ...[]byte) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	return kit.WriteNow(rc, bufs...)
}
