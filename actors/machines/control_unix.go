//go:build !windows

package machines

import "path/filepath"

// controlOptions share one OpenSSH connection between a machine's
// sessions: the first becomes the master, the others ride on it, and it
// lives as long as the first (ControlPersist=no: nothing outlives the
// server).
func controlOptions(dir string) []string {
	if dir == "" {
		return nil
	}
	return []string{"-o", "ControlMaster=auto", "-o", "ControlPath=" + filepath.Join(dir, "%C"), "-o", "ControlPersist=no"}
}
