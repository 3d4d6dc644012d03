package clients

// shellCommand runs a command line through cmd.exe, as the interactive
// client runs its key commands on Windows.
func shellCommand(command string) []string { return []string{"cmd.exe", "/C", command} }
