package cli

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts the background server without a console and outside the
// caller's Ctrl+C group, so closing the window that started it does not
// take it down.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
}
