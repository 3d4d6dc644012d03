package saved

import (
	"fmt"
	"io"
	"os/exec"
)

// StartPipe starts argv (an ssh command line) with its stdin and stdout
// as pipes and its stderr to stderr: the one way both the CLI and the
// server's machine links run ssh.
func StartPipe(argv []string, stderr io.Writer) (cmd *exec.Cmd, in io.WriteCloser, out io.ReadCloser, err error) {
	cmd = exec.Command(argv[0], argv[1:]...)
	if in, err = cmd.StdinPipe(); err != nil {
		return nil, nil, nil, err
	}
	if out, err = cmd.StdoutPipe(); err != nil {
		return nil, nil, nil, err
	}
	cmd.Stderr = stderr
	if err = cmd.Start(); err != nil {
		return nil, nil, nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	return cmd, in, out, nil
}
