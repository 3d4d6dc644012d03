//go:build linux || darwin

package kit

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// WriteNow writes bufs, in order, to a non-blocking descriptor without
// waiting, and returns how many of their bytes it took: all of them, or
// fewer when the descriptor is full (or fails: the caller's writer, which
// then gets the rest, meets the error). An actor writes a small answer
// itself with it and hands only what is left to a writer goroutine.
func WriteNow(rc syscall.RawConn, bufs ...[]byte) int {
	total := 0
	for _, b := range bufs {
		total += len(b)
	}
	n := 0
	rc.Write(func(fd uintptr) bool {
		for n < total {
			m, err := unix.Writev(int(fd), unwritten(bufs, n))
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

// unwritten is bufs without their first n bytes.
func unwritten(bufs [][]byte, n int) [][]byte {
	for len(bufs) > 0 && n >= len(bufs[0]) {
		n -= len(bufs[0])
		bufs = bufs[1:]
	}
	if len(bufs) == 0 {
		return nil
	}
	return append([][]byte{bufs[0][n:]}, bufs[1:]...)
}
