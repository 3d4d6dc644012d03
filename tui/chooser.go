package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The session chooser (choose_session: prefix S, tmux's prefix s) lists
// the sessions as `herdr session list` does — it runs that verb — with
// this client's marked, and switches the client to the one chosen: the
// client ends as a detach does, and the herdr that ran it attaches to the
// chosen session at once in the same process, starting its server when
// none runs (SwitchSession, cli/attach.go).

// SwitchSession is returned by Run when the person chose another session
// in the chooser: the caller attaches to Name next.
type SwitchSession struct{ Name string }

func (s *SwitchSession) Error() string { return "switch to session " + s.Name }

// SessionSwitch names the session to attach to next (cli checks for this
// method, not the type, so that it needs no import of this package).
func (s *SwitchSession) SessionSwitch() string { return s.Name }

// chooser is the session chooser's state: its own Update and View, driven
// by keys and by the answer of `herdr session list --json`.
type chooser struct {
	loading  bool
	err      string
	sessions []protocol.SessionInfo
	sel      int
	socket   string // this client's socket: its session is marked
}

// chooserListed carries the session list to the chooser.
type chooserListed struct{ herdrDone }

func (msg chooserListed) apply(t *tmuxParts) tea.Cmd {
	if t.chooser == nil {
		return nil // closed meanwhile
	}
	t.chooser.listed(msg.herdrDone)
	return nil
}

// listed takes the verb's answer.
func (c *chooser) listed(d herdrDone) {
	c.loading = false
	if d.err != nil {
		c.err = "herdr session list: " + firstLine(d.stderr, d.err.Error())
		return
	}
	var out struct {
		Sessions []protocol.SessionInfo `json:"sessions"`
	}
	if err := protocol.Unmarshal([]byte(d.stdout), &out); err != nil {
		c.err = "herdr session list: " + err.Error()
		return
	}
	c.sessions = out.Sessions
	c.sel = max(0, c.current())
}

// current is the index of this client's session, -1 when it is not listed.
func (c *chooser) current() int {
	for i, s := range c.sessions {
		if s.SocketPath == c.socket {
			return i
		}
	}
	return -1
}

// chooserOutcome is what a key did to the chooser.
type chooserOutcome int

const (
	chooserStay   chooserOutcome = iota
	chooserClose                 // esc
	chooserSwitch                // enter on another session
)

// Update moves the selection or ends the chooser; on chooserSwitch, name
// is the session chosen. Enter on this client's session only closes it.
func (c *chooser) Update(k tea.KeyPressMsg) (out chooserOutcome, name string) {
	switch k.String() {
	case "esc", "q", "ctrl+c":
		return chooserClose, ""
	case "up", "k":
		c.sel = max(c.sel-1, 0)
	case "down", "j":
		c.sel = min(c.sel+1, max(len(c.sessions)-1, 0))
	case "enter":
		if c.sel >= len(c.sessions) {
			return chooserStay, ""
		}
		if c.sel == c.current() {
			return chooserClose, ""
		}
		return chooserSwitch, c.sessions[c.sel].Name
	}
	return chooserStay, ""
}

// View is the chooser's lines: one a session, its name (sanitised: a
// directory name is anyone's), whether its server runs, and "(attached)"
// on this client's, as tmux's chooser marks it.
func (c *chooser) View() []string {
	switch {
	case c.loading:
		return []string{"listing the sessions…"}
	case c.err != "":
		return []string{protocol.Printable(c.err)}
	case len(c.sessions) == 0:
		return []string{"no sessions"}
	}
	cur := c.current()
	lines := make([]string, len(c.sessions))
	for i, s := range c.sessions {
		mark, state := "  ", "stopped"
		if s.Running {
			state = "running"
		}
		if i == cur {
			mark, state = "* ", state+" (attached)"
		}
		lines[i] = mark + protocol.Printable(s.Name) + "  " + state
	}
	return lines
}

// firstLine is the first line of s, else def: a verb's error on stderr.
func firstLine(s, def string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// openChooser opens the session chooser and asks for the list.
func (t *tmuxParts) openChooser() tea.Cmd {
	if t.herdr == nil {
		return t.h.toast("no session chooser here: this client cannot run herdr; use herdr session list and herdr session attach NAME")
	}
	t.chooser = &chooser{loading: true, socket: t.h.socketPath()}
	*t.mode = modeChooser
	return runHerdr(t.herdr, []string{"session", "list", "--json"}, func(d herdrDone) tea.Msg { return chooserListed{d} })
}

// chooserKey routes a key to the chooser and acts on its outcome.
func (t *tmuxParts) chooserKey(k tea.KeyPressMsg) tea.Cmd {
	out, name := t.chooser.Update(k)
	switch out {
	case chooserClose:
		t.chooser, *t.mode = nil, modeTerminal
	case chooserSwitch:
		t.chooser, *t.mode = nil, modeTerminal
		if !t.canSwitch {
			return t.h.toast("this client cannot switch sessions (its server is reached through ssh, or ends with it): detach, then herdr session attach " + protocol.Printable(name))
		}
		t.switchTo = name
		return tea.Quit
	}
	return nil
}

// drawChooser draws the chooser in the middle of the screen.
func (t *tmuxParts) drawChooser(c *canvas) {
	if t.chooser == nil {
		return
	}
	lines := t.chooser.View()
	w := 32
	for _, l := range lines {
		w = max(w, textWidth(l)+4)
	}
	w = min(w, t.h.width())
	h := min(len(lines)+2, t.h.height())
	x, y := max((t.h.width()-w)/2, 0), max((t.h.height()-h)/2, 0)
	sel := -1
	if len(t.chooser.sessions) > 0 && !t.chooser.loading && t.chooser.err == "" {
		sel = t.chooser.sel
	}
	if rows := h - 2; rows > 0 && sel >= rows { // keep the selection in sight
		lines, sel = lines[sel-rows+1:], rows-1
	}
	t.h.th().listBox(c, x, y, w, h, " sessions ", lines, sel, h-2)
}

// switchErr is Run's answer when the client ended to switch sessions.
func switchErr(name string) error {
	if name == "" {
		return nil
	}
	return &SwitchSession{Name: name}
}
