//go:build unix

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

// Listen binds the API socket. The directory is created 0700 when missing
// and must be safe (SafeDir); a stale socket (nobody answers) is replaced,
// a live one refused. The socket is 0600 from the moment it exists (bound
// under a 0077 umask), and connections from other users are refused.
func Listen(path string) (net.Listener, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create socket directory: %w", err)
	}
	if err := SafeDir(dir); err != nil {
		return nil, err
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
	l, err := bindPrivate(path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	l.SetUnlinkOnClose(true)
	return &sameUserListener{UnixListener: l, uid: os.Getuid()}, nil
}

// AdoptListener takes over a listening socket a predecessor passed on (a
// live handoff) as Listen's own: connections from other users are refused,
// and closing it removes the socket file (a listener made from a
// descriptor would leave it behind, and take anyone's connections).
func AdoptListener(l net.Listener) net.Listener {
	ul, ok := l.(*net.UnixListener)
	if !ok {
		return l
	}
	ul.SetUnlinkOnClose(true)
	return &sameUserListener{UnixListener: ul, uid: os.Getuid()}
}

// bindPrivate binds path with a 0077 umask, so the socket is never
// reachable by others, not even between bind and a chmod. The umask is
// process-wide: it is set only around the bind, which runs while the
// server starts, before it creates any other file.
func bindPrivate(path string) (*net.UnixListener, error) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	return net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
}

// sameUserListener refuses connections from other users (root excepted,
// who can read the socket anyway), whatever the socket's mode.
type sameUserListener struct {
	*net.UnixListener
	uid int
}

// Accept returns the next connection from our own user; others are closed
// unanswered and never reach the caller.
func (l *sameUserListener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		if p, err := unixPeer(c); err == nil && allowedPeer(p.UID, l.uid) {
			return &peerConn{UnixConn: c, peer: p}, nil
		}
		c.Close()
	}
}

// peerConn is an accepted connection with the peer Accept asked the kernel
// for: ConnPeer answers from it rather than asking again (a getsockopt a
// connection). Embedding keeps every method of the UnixConn (SyscallConn,
// CloseWrite, …) for the interfaces the server asserts.
type peerConn struct {
	*net.UnixConn
	peer Peer
}

// peerUID is the user id of the process at the other end of c.
func peerUID(c *net.UnixConn) (int, error) {
	p, err := unixPeer(c)
	return p.UID, err
}

// unixPeer is the user and process at the other end of c.
func unixPeer(c *net.UnixConn) (Peer, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var p Peer
	var pErr error
	if err := rc.Control(func(fd uintptr) { p, pErr = fdPeer(int(fd)) }); err != nil {
		return Peer{}, err
	}
	return p, pErr
}

// ConnPeer is who is at the other end of a connection the server
// accepted, as far as the platform tells (ok false when it does not: not
// a Unix socket, or the kernel would not say).
func ConnPeer(c net.Conn) (p Peer, ok bool) {
	if pc, known := c.(*peerConn); known {
		return pc.peer, true
	}
	uc, isUnix := c.(*net.UnixConn)
	if !isUnix {
		return Peer{}, false
	}
	p, err := unixPeer(uc)
	return p, err == nil
}

// allowedPeer is the peer rule: the server's own user, or root.
func allowedPeer(peer, self int) bool { return peer == self || peer == 0 }

// Dial connects to the API socket, which must be trustworthy before
// anything is sent to it: its directory and every one above it safe
// (SafeDir), and the process answering our own user's or root's, as the
// server demands of its clients. A missing directory is an error
// IsNotRunning recognises; the rest wrap ErrUnsafeSocket.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	if err := SafeDir(filepath.Dir(path)); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%w %s: %v", ErrUnsafeSocket, path, err)
	}
	conn, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return nil, err
	}
	uid, err := peerUID(conn.(*net.UnixConn))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w %s: cannot tell which user serves it: %v", ErrUnsafeSocket, path, err)
	}
	if !allowedPeer(uid, os.Getuid()) {
		conn.Close()
		return nil, fmt.Errorf("%w %s: it is served by uid %d, not by you (uid %d) or root", ErrUnsafeSocket, path, uid, os.Getuid())
	}
	return conn, nil
}

// IsNotRunning reports whether a Dial error means nobody listens at the path.
func IsNotRunning(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) || errors.Is(err, os.ErrNotExist)
}
