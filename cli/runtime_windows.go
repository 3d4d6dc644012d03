package cli

import (
	"io"
	"os"
	"os/exec"
)

// execProgram runs bin with args as a child sharing this console and
// stdio (Windows has no exec) and waits for it; its exit status comes
// back as an *exec.ExitError.
func execProgram(bin string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.Env = os.Environ()
	// Once the child ended, what it left holding a stream that is not a
	// file of ours (a caller's reader) cannot hold the wait.
	cmd.WaitDelay = childWaitDelay
	return cmd.Run()
}
