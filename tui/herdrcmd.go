package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/herdr-go/herdr/protocol"
)

// herdrRunner runs a herdr command line and gives back what it printed.
// The session chooser lists the sessions with it and the command prompt
// runs its verbs with it. The client's own runner is a child herdr
// (execHerdr); tests give one of their own.
type herdrRunner interface {
	run(ctx context.Context, args []string) (stdout, stderr string, err error)
}

// verbTimeout bounds one command of the prompt or the chooser: a verb that
// waits (events wait, agent wait) must not keep a child forever.
const verbTimeout = 60 * time.Second

// execHerdr runs this program's own executable as a child, never through
// a shell, with the client's session's socket in its environment: the
// same command line as typed at a shell prompt, talking to this session.
// A child rather than a call in this process, because a verb may wait,
// print to stdout, read stdin or exit: a child is killed at its deadline
// and its output is its own, while the client's terminal stays the
// client's (the child's stdin is empty).
type execHerdr struct {
	exe    string // os.Executable of the client
	socket string // this session's socket, as HERDR_SOCKET_PATH
}

// newExecHerdr is the runner of a client attached to socket; nil when the
// executable cannot be found (the prompt and the chooser then say so).
func newExecHerdr(socket string) herdrRunner {
	exe, err := os.Executable()
	if err != nil || socket == "" {
		return nil
	}
	return execHerdr{exe: exe, socket: socket}
}

func (e execHerdr) run(ctx context.Context, args []string) (string, string, error) {
	cmd := exec.CommandContext(ctx, e.exe, args...)
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		// This session's socket decides; a session name from the
		// environment would name another.
		if !strings.HasPrefix(kv, "HERDR_SOCKET_PATH=") && !strings.HasPrefix(kv, "HERDR_SESSION=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HERDR_SOCKET_PATH="+e.socket)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("stopped after %s: %w", verbTimeout, ctx.Err())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = fmt.Errorf("exit status %d", exit.ExitCode())
	}
	return out.String(), errOut.String(), err
}

// herdrDone is what a child herdr printed, for the part that ran it.
type herdrDone struct {
	stdout, stderr string
	err            error
}

// runHerdr is the command that runs args with r; Bubble Tea runs it on a
// goroutine of its own, so Update never waits on a child.
func runHerdr(r herdrRunner, args []string, wrap func(herdrDone) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), verbTimeout)
		defer cancel()
		var d herdrDone
		d.stdout, d.stderr, d.err = r.run(ctx, args)
		return wrap(d)
	}
}

// partMsg is a message for one of the parts that came with the tmux
// preset (the session chooser, the command prompt, the layout cycle): it
// applies itself to them, so the model routes them all with one case.
type partMsg interface {
	apply(t *tmuxParts) tea.Cmd
}

// tmuxParts is the component of the parts that came with the tmux preset
// (the session chooser, the command prompt, the layout cycle): their
// state, their keys and drawing, and what they ask of the client through
// tmuxHost (a fake in tests).
type tmuxParts struct {
	h         tmuxHost
	mode      *mode
	herdr     herdrRunner // runs herdr verbs; nil: the chooser and prompt say they cannot
	canSwitch bool        // the client reaches its server on a local socket (a switch can attach elsewhere)
	switchTo  string      // the session chosen: Run returns SwitchSession
	chooser   *chooser    // open session chooser, nil when closed (chooser.go)
	prompt    *cmdPrompt  // the command prompt, made on first use (cmdprompt.go)
	layoutOf  map[string]int
	arranging bool // a layout is being applied (layoutcycle.go)
}

// tmuxHost is what the tmux parts read of the client and ask it to do.
type tmuxHost interface {
	toast(text string) tea.Cmd
	// setToastText says text in the tab bar until the next toast.
	setToastText(text string)
	focusedLayout() (protocol.PaneLayoutSnapshot, bool)
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	flushInput()
	// socketPath is this client's session's socket (the chooser marks it).
	socketPath() string
	th() *theme
	width() int
	height() int
}

// Modes of the tmux parts.
const (
	modeChooser mode = 200 + iota // the session chooser has the keys
	modePrompt                    // the command prompt (or its output) has the keys
)
