//go:build !windows

package machines

import "path/filepath"

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
	return []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + filepath.Join(dir, machine), "-o", "ControlPersist=no"}
}
