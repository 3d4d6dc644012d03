package plugins

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// maxOutput is how much of each output stream a run keeps.
const maxOutput = 64 << 10

// commandTimeout is how long a plugin command may run before it is
// killed, with every process it started.
var commandTimeout = 60 * time.Second

// job is one plugin command to run.
type job struct {
	argv []string
	dir  string
	env  []string
}

// outcome is how a run ended.
type outcome struct {
	exitCode       *int32
	stdout, stderr string
	err            string // why it failed to start, or was killed
	finished       time.Time
}

// capped keeps the first maxOutput bytes written to it.
type capped struct {
	buf       []byte
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	if len(c.buf)+len(p) > maxOutput {
		c.truncated = true
	}
	return len(p), nil
}

func (c *capped) String() string {
	if c.truncated {
		return string(c.buf) + "\n[output truncated at 64 KiB]"
	}
	return string(c.buf)
}

// run runs j to the end (or the timeout) on the calling goroutine.
func run(j job, timeout time.Duration) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.argv[0], j.argv[1:]...)
	cmd.Dir, cmd.Env = j.dir, j.env
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second // a grandchild holding the pipes does not hold the run
	err := cmd.Run()
	o := outcome{stdout: stdout.String(), stderr: stderr.String(), finished: time.Now()}
	if cmd.ProcessState != nil {
		code := int32(cmd.ProcessState.ExitCode())
		o.exitCode = &code
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.err = "killed after " + timeout.String() + " (timeout)"
	case err != nil && !errors.As(err, &exitErr):
		o.err = err.Error()
	}
	return o
}
