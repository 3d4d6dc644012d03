package tui

// shellArgv runs command through cmd.exe.
func shellArgv(command string, _ bool) []string {
	return []string{"cmd.exe", "/C", command}
}
