//go:build windows

package protocol

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"gopkg.in/natefinch/npipe.v2"
)

// ErrServerRunning reports that a live server already owns the socket.
var ErrServerRunning = errors.New("herdr server is already running")

func pipeName(path string) string { return `\\.\pipe\` + filepath.Clean(path) }

// Listen binds a named pipe named after the socket path and writes a marker file at the path.
func Listen(path string) (net.Listener, error) {
	if conn, err := npipe.DialTimeout(pipeName(path), time.Second); err == nil {
		conn.Close()
		return nil, fmt.Errorf("%w (socket busy at %s)", ErrServerRunning, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create socket directory: %w", err)
	}
	l, err := npipe.Listen(pipeName(path))
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(fmt.Sprintf("%d:%d", os.Getpid(), time.Now().UnixNano())), 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("write pipe marker: %w", err)
	}
	return l, nil
}

// Dial connects to the API pipe.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	return npipe.DialTimeout(pipeName(path), timeout)
}

// IsNotRunning reports whether a Dial error means nobody listens at the path.
func IsNotRunning(err error) bool { return err != nil }

// ConnPeer is who is at the other end of a connection; a named pipe's
// client is not told here (ok false), so no budget is kept per process.
func ConnPeer(net.Conn) (p Peer, ok bool) { return Peer{}, false }
