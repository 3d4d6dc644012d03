//go:build !windows

package clients

// shellCommand runs a command line through /bin/sh, as a key command's
// popup does in Herdr.
func shellCommand(command string) []string { return []string{"/bin/sh", "-c", command} }
