//go:build unix && !linux

package pane

// readNow is readRetrying where a read's raw system call is not the
// platform's way (a BSD or macOS goes through its C library).
func readNow(fd int, b []byte) (int, error) { return readRetrying(fd, b) }
