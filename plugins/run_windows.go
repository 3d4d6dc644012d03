package plugins

import "os/exec"

// ownGroup: Windows has no process groups to kill here; the timeout kills
// the command itself.
func ownGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
}
