//go:build !windows

package plugins

// ShellArgv runs a [[keys.command]] line as the client does: a login sh,
// so the user's PATH is there.
func ShellArgv(command string) []string { return []string{"/bin/sh", "-lc", command} }
