//go:build unix

package cli

import "syscall"

// detached makes the background server a session leader of its own, so the
// terminal that started it closing does not take it down.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
