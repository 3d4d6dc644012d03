//go:build !windows

package protocol

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrServerRunning reports that a live server already owns the socket.
var ErrServerRunning = errors.New("herdr server is already running")

// Listen binds the API socket: the directory is created 0700, a stale socket
// (nobody answers) is replaced, a live one is refused, and the socket is 0600.
func Listen(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create socket directory: %w", err)
	}
	if _, err := os.Lstat(path); err == nil {
		conn, dialErr := net.DialTimeout("unix", path, time.Second)
		if dialErr == nil {
			conn.Close()
			return nil, fmt.Errorf("%w (socket busy at %s)", ErrServerRunning, path)
		}
		if !errors.Is(dialErr, syscall.ECONNREFUSED) && !errors.Is(dialErr, os.ErrNotExist) && !errors.Is(dialErr, syscall.ENOENT) {
			var ne net.Error
			if !(errors.As(dialErr, &ne) && ne.Timeout()) {
				return nil, fmt.Errorf("probe existing socket %s: %w", path, dialErr)
			}
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("chmod socket: %w", err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(true)
	return l, nil
}

// Dial connects to the API socket.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	return net.DialTimeout("unix", path, timeout)
}

// IsNotRunning reports whether a Dial error means nobody listens at the path.
func IsNotRunning(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) || errors.Is(err, os.ErrNotExist)
}
