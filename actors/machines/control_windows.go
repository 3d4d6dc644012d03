package machines

// controlOptions: Windows' OpenSSH has no ControlMaster, so each session
// of a machine is a connection of its own.
func controlOptions(_, _ string) []string { return nil }
