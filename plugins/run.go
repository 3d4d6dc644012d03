package plugins

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// maxOutput is how much of each output stream a run keeps.
const maxOutput = 64 << 10

// DefaultCommandTimeout is how long a plugin command may run before it is
// killed, with every process it started, unless TimeoutEnv says otherwise.
const DefaultCommandTimeout = 60 * time.Second

// TimeoutEnv names the variable, read by the server at start, that sets
// the command timeout in milliseconds. Herdr has no such setting; it lets
// an operator bound hung plugins more tightly and tests see a kill quickly.
const TimeoutEnv = "HERDR_PLUGIN_TIMEOUT_MS"

// CommandTimeout is the command timeout env gives: TimeoutEnv when it is a
// positive number of milliseconds, else DefaultCommandTimeout.
func CommandTimeout(env func(string) string) time.Duration {
	if ms, err := strconv.ParseUint(strings.TrimSpace(env(TimeoutEnv)), 10, 32); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return DefaultCommandTimeout
}

// Job is one plugin command to run: argv in Dir with Env.
type Job struct {
	Argv []string
	Dir  string
	Env  []string
}

// Outcome is how a run ended.
type Outcome struct {
	ExitCode       *int32 // nil when it did not exit on its own (killed, never started)
	Stdout, Stderr string
	Err            string // why it failed to start, or was killed
	Finished       time.Time
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

// Run runs j to the end (or the timeout) on the calling goroutine; the
// timeout kills the command with every process it started.
func Run(j Job, timeout time.Duration) Outcome {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.Argv[0], j.Argv[1:]...)
	cmd.Dir, cmd.Env = j.Dir, j.Env
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second // a grandchild holding the pipes does not hold the run
	err := cmd.Run()
	o := Outcome{Stdout: stdout.String(), Stderr: stderr.String(), Finished: time.Now()}
	// A command ended by a signal (the timeout's kill among them) has no
	// exit code: the log's exit_code is optional, and -1 is not a code the
	// command gave.
	if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 0 {
		code := int32(cmd.ProcessState.ExitCode())
		o.ExitCode = &code
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.Err = "killed after " + timeout.String() + " (timeout)"
	case err != nil && !errors.As(err, &exitErr):
		o.Err = err.Error()
	}
	return o
}
