package pane

import "time"

// console is a child process running on a pseudo-terminal: a Unix PTY
// (console_unix.go) or a Windows ConPTY (console_windows.go). The pane
// reads and writes it from its own goroutines and controls it from its
// Receive; nothing else in the package knows which platform it runs on.
type console interface {
	// ReadBlock returns the program's next output in a block of the
	// shared pool (see inbox.go), never empty; an error means no more will
	// come. On Unix the block is taken only once output is there, so an
	// idle terminal's reader holds neither a thread nor a buffer. Where a
	// read does not block, admit is called before each read and what it
	// returns, when not nil, after it (readturn.go); a blocking read
	// never calls it.
	ReadBlock(admit func() (done func())) ([]byte, error)
	// Write sends input to the program.
	Write(p []byte) (int, error)
	// TryWrite writes what the terminal takes now, without waiting, and
	// returns how much that was (0 where it cannot tell without blocking,
	// or on an error, which the next Write reports).
	TryWrite(p []byte) int
	Resize(cols, rows int) error
	// Pid is the child's (the shell's) process id.
	Pid() int
	// TTY names the terminal device the child sees ("" when it has none).
	TTY() string
	// ForegroundGroup identifies the job that owns the terminal now: the
	// foreground process group on Unix; 0 when unknown. It equals Pid when
	// the shell itself is in front.
	ForegroundGroup() int
	// Wait blocks until the child exits and returns its exit code.
	Wait() int
	// OnExit calls fn, once, with the exit code when the child has exited
	// (at once if it has), from a goroutine that must not be blocked: the
	// pane's way of hearing of the exit without a goroutine of its own.
	OnExit(fn func(code int))
	// Exited is closed once the child has exited: a stopping pane's kill
	// timer waits on it (the pane keeps no channel of its own).
	Exited() <-chan struct{}
	// Hangup asks everything on the terminal to go, as closing a terminal
	// window does, and releases the terminal: reads then fail.
	Hangup()
	// Kill forces every process of the terminal's session to go.
	Kill()
	// Lingering reports whether processes of the terminal's session are
	// still running (after the shell has gone, its background jobs).
	Lingering() bool
}

// consoleSpec says what to start and how big its terminal is.
type consoleSpec struct {
	Argv       []string
	Dir        string
	Env        []string
	Cols, Rows int
	// Pixels gives the window size in pixels too, in cells of the
	// emulator's default 8×16 (emulator.CellPixels), so that graphics
	// programs (kitty's icat needs it) size their images in the cells the
	// emulator places them in. Unix only.
	Pixels bool
	// reaper collects the child's exit (the runtime's; Unix only).
	reaper *reaper
}

// drainGrace is how long a pane whose child has exited keeps reading output
// still in flight before it reports the exit: long enough for the last
// lines, short enough that a background job holding the terminal open does
// not keep a dead shell's pane alive.
const drainGrace = 250 * time.Millisecond

// killGrace is how long a hung-up terminal's processes get to exit before
// they are killed.
const killGrace = 2 * time.Second
