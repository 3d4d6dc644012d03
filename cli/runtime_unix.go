//go:build !windows

package cli

import (
	"io"
	"os"
	"syscall"
)

// execProgram replaces this process with bin run with args: the pid, the
// controlling terminal and every inherited descriptor stay. It returns
// only when the exec fails.
func execProgram(bin string, args []string, _ io.Reader, _, _ io.Writer) error {
	return syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
