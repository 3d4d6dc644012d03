package tui

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Notifications reach the person the way [ui.toast] delivery says:
// "herdr" draws a toast in a corner of the client, "terminal" asks the
// outer terminal (OSC 9, OSC 777, kitty's OSC 99), "system" runs the
// platform's notifier (notify_*.go). Sounds (sound*.go) play with them.
// They come from notification.show (the server pushes client.toast) and
// from agents that became blocked or done out of sight.

// notice is one notification.
type notice struct {
	title, body string
	position    string // in-app corner; "" is [ui.toast.herdr] position
	sound       string // "", "done" or "request"
	agent       string // the agent it is about, for [ui.sound.agents]
	// delivery overrides [ui.toast] delivery: the server's, for a
	// notification.show it answered shown (its config may be newer).
	delivery string
}

// cornerToast is an in-app notification drawn in a corner.
type cornerToast struct {
	text     string
	position string
	seq      int
}

// cornerExpired hides corner toast number seq.
type cornerExpired struct{ seq int }

// systemDone is the end of a system notifier's run.
type systemDone struct {
	prog string
	err  error
}

// notifier delivers notifications and plays sounds, as a component: the
// corner toast it shows, the sound settings, whether it said the system
// notifier fails. The toast settings, the environment and the outer
// terminal come through host.
type notifier struct {
	corner         *cornerToast
	saidNoNotifier bool
	configDir      string // where relative sound paths start
	tones          *toneFiles
	// statuses are the agents' statuses last seen (nil before the first
	// snapshot); attention is the pane whose agent last became blocked or
	// done out of sight (prefix o goes there).
	statuses  map[string]protocol.AgentStatus
	attention string
	host      notifyHost
}

// notifyHost is what the notifier needs of the client around it.
type notifyHost interface {
	// toastConfig is [ui.toast], soundConfig [ui.sound].
	toastConfig() config.Toast
	soundConfig() config.Sound
	// getenv reads the client's environment.
	getenv(key string) string
	// context ends what the notifier started when the client exits.
	context() context.Context
	// toOuter sends bytes to the outer terminal with the next frame.
	toOuter(b []byte)
	// nextToast numbers a toast (shared with the tab bar's).
	nextToast() int
	toast(text string) tea.Cmd
	// The session, for the agents' notifications.
	snapshot() *protocol.SessionSnapshot
	paneInfo(id string) (protocol.PaneInfo, bool)
	workspaceLabel(id string) string
	tabLabel(id string) string
}

// notify delivers n and plays its sound.
func (nf *notifier) notify(n notice) tea.Cmd {
	var cmds []tea.Cmd
	delivery := nf.host.toastConfig().Delivery
	if n.delivery != "" {
		delivery = n.delivery
	}
	switch delivery {
	case config.ToastHerdr:
		cmds = append(cmds, nf.showCorner(n))
	case config.ToastTerminal:
		nf.host.toOuter(terminalNotice(n.title, n.body, nf.host.getenv))
	case config.ToastSystem:
		cmds = append(cmds, nf.systemNotice(n))
	}
	cmds = append(cmds, nf.playSound(n.sound, n.agent))
	return tea.Batch(cmds...)
}

func (nf *notifier) showCorner(n notice) tea.Cmd {
	text := n.title
	if n.body != "" {
		text += ": " + n.body
	}
	pos := n.position
	if pos == "" {
		pos = nf.host.toastConfig().HerdrPosition
	}
	seq := nf.host.nextToast()
	nf.corner = &cornerToast{text: protocol.Printable(text), position: pos, seq: seq}
	return tea.Tick(protocol.ToastVisible, func(time.Time) tea.Msg { return cornerExpired{seq: seq} })
}

// expire hides corner toast seq, unless another has replaced it.
func (nf *notifier) expire(msg cornerExpired) {
	if nf.corner != nil && nf.corner.seq == msg.seq {
		nf.corner = nil
	}
}

// drawCorner draws the in-app toast in its corner of the whole window,
// width×height.
func (nf *notifier) drawCorner(c *canvas, width, height int, th *theme) {
	t := nf.corner
	if t == nil || width < 8 || height < 4 {
		return
	}
	w := min(textWidth(t.text)+4, width-2)
	h := 3
	x, y := width-w-1, height-h-1
	if strings.HasSuffix(t.position, "-left") {
		x = 1
	} else if strings.HasSuffix(t.position, "-center") {
		x = (width - w) / 2
	}
	if strings.HasPrefix(t.position, "top-") {
		y = 1
	}
	st := th.toast
	c.fill(x, y, w, h, " ", st)
	c.text(x+2, y+1, t.text, w-4, st)
}

// terminalNotice is the escape sequence that asks the outer terminal to
// notify: OSC 99 for kitty, OSC 9 for terminals known to read it
// (ghostty, iTerm2, WezTerm), else both OSC 777 and OSC 9; wrapped for
// tmux when the client runs inside it.
func terminalNotice(title, body string, getenv func(string) string) []byte {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch r {
			case '\x1b', '\a', '\u009c', ';':
				if r == ';' {
					return ','
				}
				return -1
			case '\n', '\r', '\t':
				return ' '
			}
			return r
		}, s)
	}
	title, body = clean(title), clean(body)
	msg := title
	if body != "" {
		msg += ": " + body
	}
	osc9 := "\x1b]9;" + msg + "\x1b\\"
	var seq string
	switch {
	case getenv("KITTY_WINDOW_ID") != "" || getenv("TERM") == "xterm-kitty":
		if body != "" {
			seq = "\x1b]99;i=1:d=0;" + title + "\x1b\\\x1b]99;i=1:p=body;" + body + "\x1b\\"
		} else {
			seq = "\x1b]99;;" + title + "\x1b\\"
		}
	case getenv("TERM_PROGRAM") == "ghostty" || getenv("TERM_PROGRAM") == "iTerm.app" ||
		getenv("TERM_PROGRAM") == "WezTerm" || getenv("TERM") == "xterm-ghostty":
		seq = osc9
	default:
		seq = "\x1b]777;notify;" + title + ";" + body + "\x1b\\" + osc9
	}
	if getenv("TMUX") != "" {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return []byte(seq)
}

// systemNotice runs the platform's notifier off the loop.
func (nf *notifier) systemNotice(n notice) tea.Cmd {
	prog, args, env := systemNotifier(n.title, n.body)
	getenv, ctx := nf.host.getenv, nf.host.context()
	return func() tea.Msg {
		if err := notifierUsable(prog, getenv); err != nil {
			return systemDone{prog: prog, err: err}
		}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, prog, args...)
		cmd.Env = append(os.Environ(), env...)
		return systemDone{prog: prog, err: cmd.Run()}
	}
}

// systemFailed says once that system notifications cannot be shown.
func (nf *notifier) systemFailed(msg systemDone) tea.Cmd {
	if msg.err == nil || nf.saidNoNotifier {
		return nil
	}
	nf.saidNoNotifier = true
	return nf.host.toast("system notifications: " + msg.prog + ": " + msg.err.Error() + "; set [ui.toast] delivery to herdr or terminal")
}

// agentNotice is the notification for an agent that became blocked or
// done (Herdr's wording), or ok false for any other change.
func (nf *notifier) agentNotice(p protocol.PaneInfo, status protocol.AgentStatus) (notice, bool) {
	n := notice{body: nf.host.workspaceLabel(p.WorkspaceID) + " · " + nf.host.tabLabel(p.TabID)}
	if p.Agent != nil {
		n.agent = *p.Agent
	}
	switch status {
	case protocol.StatusBlocked:
		n.title, n.sound = agentName(p)+" needs attention", "request"
	case protocol.StatusDone:
		n.title, n.sound = agentName(p)+" finished", "done"
	default:
		return notice{}, false
	}
	return n, true
}

// agentChanges notices agents that became blocked or done: out of sight
// they become the attention target (prefix o); outside the focused tab
// they notify, once the status has held for [ui.toast] delay_seconds.
func (nf *notifier) agentChanges() []tea.Cmd {
	var cmds []tea.Cmd
	snap := nf.host.snapshot()
	focusedTab := ""
	if snap.FocusedTabID != nil {
		focusedTab = *snap.FocusedTabID
	}
	seen := make(map[string]protocol.AgentStatus, len(snap.Panes))
	for _, p := range snap.Panes {
		seen[p.PaneID] = p.AgentStatus
		old, known := nf.statuses[p.PaneID]
		if !known && nf.statuses != nil {
			known, old = true, protocol.StatusUnknown // a pane new since the last snapshot
		}
		if !known || old == p.AgentStatus || p.Focused {
			continue
		}
		if p.AgentStatus != protocol.StatusBlocked && p.AgentStatus != protocol.StatusDone {
			continue
		}
		nf.attention = p.PaneID
		if p.TabID == focusedTab {
			continue // the person is looking at it
		}
		due := agentDue{paneID: p.PaneID, status: p.AgentStatus}
		if d := time.Duration(nf.host.toastConfig().DelaySeconds) * time.Second; d > 0 {
			cmds = append(cmds, tea.Tick(d, func(time.Time) tea.Msg { return due }))
		} else {
			cmds = append(cmds, func() tea.Msg { return due })
		}
	}
	nf.statuses = seen
	return cmds
}

// agentWasDue notifies about an agent whose status held its delay.
func (nf *notifier) agentWasDue(msg agentDue) tea.Cmd {
	if p, ok := nf.host.paneInfo(msg.paneID); ok && p.AgentStatus == msg.status {
		if n, ok := nf.agentNotice(p, msg.status); ok {
			return nf.notify(n)
		}
	}
	return nil
}
