//go:build !windows

package saved

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/herdr-go/herdr/protocol"
)

// CheckAgentSocket checks a socket a client lends the server: an absolute
// path short enough to be a unix socket address, naming (not through a
// symlink) a socket of this user. A path that is no such socket is
// invalid_ssh_agent; one that names nothing (any more) is
// ssh_agent_unavailable, as in Herdr. It stats the file: run it off an
// actor's mailbox.
func CheckAgentSocket(path string) *protocol.Error {
	max := len(syscall.RawSockaddrUnix{}.Path) - 1 // room for the NUL
	switch {
	case path == "" || !filepath.IsAbs(path):
		return protocol.Errorf(protocol.CodeInvalidSSHAgent, "ssh agent socket %q is not an absolute path", protocol.Printable(path))
	case strings.IndexByte(path, 0) >= 0:
		return protocol.Errorf(protocol.CodeInvalidSSHAgent, "ssh agent socket path contains a NUL byte")
	case len(path) > max:
		return protocol.Errorf(protocol.CodeInvalidSSHAgent, "ssh agent socket path is %d bytes, more than a socket address holds (%d)", len(path), max)
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return protocol.Errorf(protocol.CodeSSHAgentUnavailable, "no ssh agent socket at %s", protocol.Printable(path))
	}
	if err != nil {
		return protocol.Errorf(protocol.CodeSSHAgentUnavailable, "ssh agent socket %s: %v", protocol.Printable(path), err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return protocol.Errorf(protocol.CodeInvalidSSHAgent, "%s is not a socket", protocol.Printable(path))
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Getuid() {
		return protocol.Errorf(protocol.CodeInvalidSSHAgent, "ssh agent socket %s does not belong to this user", protocol.Printable(path))
	}
	return nil
}
