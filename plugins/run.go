package plugins

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxOutput is how much of each output stream a run keeps.
const maxOutput = 64 << 10

// outputGrace is how long a run waits, once its group is killed, for its
// output pipes to close: only a process that left the group (setsid) and
// kept them open makes it wait that long; its later output is lost.
const outputGrace = 2 * time.Second

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
	// Records is the folder where the run is recorded while it runs, for
	// the next server to end it if this one dies (EndLeftRuns); "" keeps
	// no record.
	Records string
}

// Outcome is how a run ended.
type Outcome struct {
	ExitCode       *int32 // nil when it did not exit on its own (killed, never started)
	Stdout, Stderr string
	Err            string // why it failed to start, or was killed
	Finished       time.Time
}

// capped keeps the first maxOutput bytes written to it. A run may stop
// waiting for the goroutine that fills it, hence the lock.
type capped struct {
	mu        sync.Mutex
	buf       []byte
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := maxOutput - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	if len(c.buf)+len(p) > maxOutput {
		c.truncated = true
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.truncated {
		return string(c.buf) + "\n[output truncated at 64 KiB]"
	}
	return string(c.buf)
}

// Command is one plugin command: Run runs it on one goroutine, Kill may
// end it from another. It runs in a process group of its own (a job
// object on Windows), and the run ends when its first process exits:
// whatever that left running in the group is killed then, so nothing a
// plugin command starts outlives its run — a helper meant to live on must
// leave the group itself (setsid). The timeout, and Kill, kill the whole
// group sooner.
type Command struct {
	job     Job
	timeout time.Duration

	mu     sync.Mutex
	group  *group // set once started
	exited bool   // its first process has exited: the group is no longer its to kill
	killed string // why it was killed; "" while it was not
}

// NewCommand is j, to be killed with its group after timeout.
func NewCommand(j Job, timeout time.Duration) *Command {
	return &Command{job: j, timeout: timeout}
}

// Run runs j to its end (or the timeout) on the calling goroutine.
func Run(j Job, timeout time.Duration) Outcome { return NewCommand(j, timeout).Run() }

// Kill kills the command and every process in its group now, saying why;
// a command not started yet never starts, and one that has ended is left
// alone.
func (c *Command) Kill(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exited {
		return
	}
	if c.killed == "" {
		c.killed = why
	}
	if c.group != nil {
		c.group.kill()
	}
}

// Run runs the command to its end on the calling goroutine.
func (c *Command) Run() Outcome {
	// The command writes into pipes of ours, not through exec's copying
	// goroutines: Wait then returns when the first process exits, not when
	// the last process holding the pipes does.
	var stdout, stderr capped
	var readers sync.WaitGroup
	var readEnds []*os.File
	cmd := exec.Command(c.job.Argv[0], c.job.Argv[1:]...)
	cmd.Dir, cmd.Env = c.job.Dir, c.job.Env
	token := newRunToken()
	if recordsKept && c.job.Records != "" {
		cmd.Env = append(slices.Clip(cmd.Env), RunTokenEnv+"="+token)
	}
	for _, into := range []*capped{&stdout, &stderr} {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(readEnds)
			return Outcome{Err: err.Error(), Finished: time.Now()}
		}
		readEnds = append(readEnds, r)
		defer w.Close()
		if into == &stdout {
			cmd.Stdout = w
		} else {
			cmd.Stderr = w
		}
		readers.Add(1)
		go func() {
			defer readers.Done()
			_, _ = io.Copy(into, r)
		}()
	}
	g := newGroup(cmd)
	defer g.close()

	var err error
	c.mu.Lock()
	if c.killed != "" {
		err = errors.New(c.killed) // killed before it started
	} else if err = cmd.Start(); err == nil {
		g.attach(cmd.Process)
		c.group = g
	}
	c.mu.Unlock()
	// Only the command holds the write ends now: they close with it.
	cmd.Stdout.(*os.File).Close()
	cmd.Stderr.(*os.File).Close()
	if err != nil {
		closeAll(readEnds)
		readers.Wait()
		return Outcome{Err: err.Error(), Finished: time.Now()}
	}

	record := ""
	if recordsKept {
		record = writeRecord(c.job.Records, runRecord{PID: cmd.Process.Pid, Start: startStamp(cmd.Process.Pid), Token: token, Argv: c.job.Argv})
	}
	timer := time.AfterFunc(c.timeout, func() { c.Kill("killed after " + c.timeout.String() + " (timeout)") })
	waitErr := cmd.Wait()
	timer.Stop()
	c.mu.Lock()
	c.exited = true
	g.kill() // what the first process left behind
	killed := c.killed
	c.mu.Unlock()
	if record != "" {
		os.Remove(record)
	}

	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(outputGrace):
		closeAll(readEnds) // a process outside the group holds them
	}
	o := Outcome{Stdout: stdout.String(), Stderr: stderr.String(), Finished: time.Now(), Err: killed}
	// A command ended by a signal (a kill among them) has no exit code: the
	// log's exit_code is optional, and -1 is not a code the command gave.
	if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 0 {
		code := int32(cmd.ProcessState.ExitCode())
		o.ExitCode = &code
	}
	var exitErr *exec.ExitError
	if waitErr != nil && o.Err == "" && !errors.As(waitErr, &exitErr) {
		o.Err = waitErr.Error()
	}
	return o
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
