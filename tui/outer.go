package tui

import (
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
)

// Modes the client turns on in the outer terminal, and off again when it
// leaves: the alternate screen, a hidden cursor until a frame places it,
// mouse button and drag reports in SGR form, bracketed paste, and the
// kitty keyboard protocol's disambiguated keys (pushed, and popped on the
// way out), so shift+enter and ctrl+i arrive distinct from enter and tab
// (keyenc.go), with xterm's modifyOtherKeys level 1 for terminals that
// have that instead (xterm; tmux with extended-keys on); a terminal with
// neither ignores both requests.
// Without [ui] mouse_capture the mouse modes stay off, so the outer
// terminal keeps its own selection and scrolling.
const (
	enterModes        = "\x1b[?1049h\x1b[?25l\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[>1u\x1b[>4;1m\x1b[H\x1b[2J"
	leaveModes        = "\x1b[0m\x1b[>4m\x1b[<u\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[0 q\x1b[?25h\x1b[?1049l"
	enterModesNoMouse = "\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[>1u\x1b[>4;1m\x1b[H\x1b[2J"
	leaveModesNoMouse = "\x1b[0m\x1b[>4m\x1b[<u\x1b[?2004l\x1b[0 q\x1b[?25h\x1b[?1049l"
	mouseOn           = "\x1b[?1002h\x1b[?1006h"
	mouseOff          = "\x1b[?1006l\x1b[?1002l"
)

// outerTerm is the person's terminal while the client runs.
type outerTerm struct {
	in, out  any
	enter    string // the modes it turns on, and off again
	leave    string
	inState  *term.State
	outState *term.State
	stop     chan struct{}
}

// openOuter puts the terminal in raw mode and the client's modes, and
// starts telling send its size when it changes. Input or output that is
// not a terminal is left alone.
func openOuter(in io.Reader, out io.Writer, send func(tea.Msg), mouse bool) (*outerTerm, error) {
	o := &outerTerm{in: in, out: out, stop: make(chan struct{}), enter: enterModes, leave: leaveModes}
	if !mouse {
		o.enter, o.leave = enterModesNoMouse, leaveModesNoMouse
	}
	if f, ok := in.(term.File); ok && term.IsTerminal(f.Fd()) {
		st, err := term.MakeRaw(f.Fd())
		if err != nil {
			return nil, err
		}
		o.inState = st
	}
	if f, ok := out.(term.File); ok && term.IsTerminal(f.Fd()) {
		o.outState = enableVT(f.Fd())
	}
	if _, err := io.WriteString(out, o.enter); err != nil {
		o.close()
		return nil, err
	}
	watchSize(out, send, o.stop)
	return o, nil
}

// terminal is the outer terminal as the model draws on it: outerTerm,
// or a test's fake that keeps what was drawn.
type terminal interface {
	io.Writer
	// cellPixels is a cell's size in pixels (0, 0: unknown).
	cellPixels() (w, h int)
	// setMouse turns mouse reports on or off: the bytes to send.
	setMouse(on bool) string
}

// Write draws on the terminal.
func (o *outerTerm) Write(b []byte) (int, error) {
	w, ok := o.out.(io.Writer)
	if !ok {
		return len(b), nil
	}
	return w.Write(b)
}

func (o *outerTerm) cellPixels() (w, h int) {
	if out, ok := o.out.(io.Writer); ok {
		return cellPixels(out)
	}
	return 0, 0
}

// setMouse turns mouse reports on or off while the client runs ([ui]
// mouse_capture changed): the bytes to send, and what leaving undoes.
func (o *outerTerm) setMouse(on bool) string {
	if on {
		o.leave = leaveModes
		return mouseOn
	}
	o.leave = leaveModesNoMouse
	return mouseOff
}

// size is the terminal's size, or 80×24 when it has none.
func outerSize(out io.Writer) (cols, rows int) {
	if f, ok := out.(term.File); ok {
		if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
			return w, h
		}
	}
	return 80, 24
}

// close turns the client's modes off and restores the terminal.
func (o *outerTerm) close() {
	close(o.stop)
	if w, ok := o.out.(io.Writer); ok {
		_, _ = io.WriteString(w, o.leave)
	}
	if f, ok := o.out.(term.File); ok && o.outState != nil {
		_ = term.Restore(f.Fd(), o.outState)
	}
	if f, ok := o.in.(term.File); ok && o.inState != nil {
		_ = term.Restore(f.Fd(), o.inState)
	}
}
