//go:build !windows

package machines

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
)

// controlOptions share one OpenSSH connection between a machine's
// sessions: the first becomes the master, the others ride on it, and it
// lives as long as the first (ControlPersist=no: nothing outlives the
// server). The socket is named after the machine, not after the host
// (%C): two machines on one host (two sessions, or one not herdr) must
// not share a master, or the end of one takes the other's sessions.
func controlOptions(dir, machine string) []string {
	if dir == "" {
		return nil
	}
	return []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + controlPath(dir, machine), "-o", "ControlPersist=no"}
}

// controlPath is the machine's socket in dir (the server's private 0700
// folder): named by a hash of its id, so nothing of machines.json steers
// it elsewhere ("/", "..") or reaches ssh's % tokens; a '%' of the
// folder's own path (TMPDIR) is escaped as ssh reads it.
func controlPath(dir, machine string) string {
	h := fnv.New64a()
	h.Write([]byte(machine))
	return strings.ReplaceAll(filepath.Join(dir, fmt.Sprintf("m%016x", h.Sum64())), "%", "%%")
}
