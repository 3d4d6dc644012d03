package saved

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// PipeWaitDelay bounds how long a child's output is read after the child
// ended: a grandchild it left behind holding its stdout or stderr (`(
// exec sleep 600 ) & exit 0`, a background `yes >&2`) would otherwise
// keep the reader, and the wait for the child, forever.
const PipeWaitDelay = 2 * time.Second

// Child is a command started by StartPipe: its stdin (In) and stdout
// (Out) are ours. Out ends once the child has ended and its output is
// read, or PipeWaitDelay after it ended, whoever still holds the pipe.
// The child is waited for by StartPipe's own goroutine: Done is closed
// when that wait returned, after which Cmd.ProcessState is set.
type Child struct {
	Cmd  *exec.Cmd
	In   io.WriteCloser
	Out  io.ReadCloser
	done chan struct{}
	err  error
	once sync.Once
}

// StartPipe starts argv (an ssh command line) with its stdin and stdout
// as pipes and its stderr to stderr: the one way both the CLI and the
// server's machine links run ssh.
func StartPipe(argv []string, stderr io.Writer) (*Child, error) {
	return StartPipeEnv(argv, nil, stderr)
}

// StartPipeEnv is StartPipe with the child's environment (nil: this
// process's): a machine link's ssh gets the agent a client lent
// (SSHAgents.Env).
func StartPipeEnv(argv, env []string, stderr io.Writer) (*Child, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command to run")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Not an *os.File: exec copies the child's stdout here on a goroutine
	// of its own, which WaitDelay bounds once the child ended; the
	// in-memory pipe is closed after the wait, so a reader of Out always
	// ends.
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = stderr
	cmd.WaitDelay = PipeWaitDelay
	if err := cmd.Start(); err != nil {
		in.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	c := &Child{Cmd: cmd, In: in, Out: pr, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		pw.CloseWithError(io.EOF)
		close(c.done)
	}()
	return c, nil
}

// Done is closed once the child was waited for.
func (c *Child) Done() <-chan struct{} { return c.done }

// Wait waits for the child; its error is exec.ErrWaitDelay when a
// grandchild kept its output open past PipeWaitDelay.
func (c *Child) Wait() error {
	<-c.done
	return c.err
}

// ExitCode is the child's exit status, -1 while it runs or when a signal
// ended it.
func (c *Child) ExitCode() int {
	select {
	case <-c.done:
		return c.Cmd.ProcessState.ExitCode()
	default:
		return -1
	}
}

// Stop ends the child: its stdin is closed first (the far side sees the
// end), then after grace it is killed; it returns once the child was
// waited for, which PipeWaitDelay bounds whatever its children hold.
func (c *Child) Stop(grace time.Duration) {
	c.once.Do(func() {
		c.In.Close()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-c.done:
		case <-t.C:
			c.Out.Close() // unblocks exec's copy should no one read it any more
			c.Cmd.Process.Kill()
		}
	})
	<-c.done
}
