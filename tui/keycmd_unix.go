//go:build !windows

package tui

// shellArgv runs command through /bin/sh (a login shell for "shell"
// commands, as Herdr does).
func shellArgv(command string, login bool) []string {
	if login {
		return []string{"/bin/sh", "-lc", command}
	}
	return []string{"/bin/sh", "-c", command}
}
