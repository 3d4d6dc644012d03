package plugins

// ShellArgv runs a [[keys.command]] line as the client does.
func ShellArgv(command string) []string { return []string{"cmd.exe", "/C", command} }
