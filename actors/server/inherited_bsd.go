//go:build unix && !linux

package server

// fdDir lists the process's open descriptors.
const fdDir = "/dev/fd"

// closeInheritedOnExec marks every descriptor from 3 up close-on-exec
// (see inherited_linux.go for why).
func closeInheritedOnExec() { markListedOnExec(fdDir) }
