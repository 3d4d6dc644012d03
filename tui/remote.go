package tui

import (
	"net"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// A remote workspace chosen in the sidebar is shown from its machine's
// own server: the client opens two connections there through
// Options.DialMachine (the ssh bridge --machine uses) — requests and the
// screen stream, as it has to the local server — streams the workspace's
// focused pane and writes typed keys to it with pane.send_text. The ids
// on that server are unqualified (build/w1:p2 is w1:p2 there). When the
// link drops, the pane stays, dimmed, marked reconnecting, and the client
// dials again after 1 s, doubling to 30 s, without touching the selection.

// Redial backoff bounds.
const (
	remoteFirstRetry = time.Second
	remoteMaxRetry   = 30 * time.Second
)

// nextBackoff is the wait after one that failed.
func nextBackoff(d time.Duration) time.Duration {
	return min(max(d*2, remoteFirstRetry), remoteMaxRetry)
}

// Link states.
const (
	remoteConnecting   = "connecting"
	remoteLive         = "live"
	remoteReconnecting = "reconnecting"
)

// remoteLink is the connection to the machine whose workspace is shown.
// Its messages carry gen, so those of a link since replaced are dropped.
type remoteLink struct {
	machine  string // the machine's label
	pane     string // the qualified pane shown
	gen      int
	state    string
	backoff  time.Duration // the wait before the next dial
	req, scr *rpcConn
	screen   *paneScreen
}

func (r *remoteLink) close() {
	for _, c := range []*rpcConn{r.req, r.scr} {
		if c != nil {
			c.close()
		}
	}
	r.req, r.scr = nil, nil
}

// Messages of the remote link.
type (
	remoteDialedMsg struct {
		gen      int
		req, scr *rpcConn
		err      error
	}
	remoteFrameMsg struct {
		gen int
		f   *protocol.ScreenFrame
	}
	remoteLostMsg   struct{ gen int }
	remoteRedialMsg struct{ gen int }
)

// remoteView is the remote workspace shown, as a component: the link to
// its machine, its messages, keys and drawing. What is chosen, the dialer
// and the pane area come from host.
type remoteView struct {
	link *remoteLink // nil while none is open
	gen  int         // the last link's number
	host remoteHost
}

// remoteHost is what the remote view needs of the client around it.
type remoteHost interface {
	// chosenRemote is the remote workspace chosen in the sidebar and its
	// machine (nil while a local one is shown).
	chosenRemote() (*fleetMachine, string)
	// dialMachine opens a connection to a machine's server (nil: this
	// client cannot reach machines).
	dialMachine() func(machine string) (net.Conn, error)
	// sender delivers a message to the program from any goroutine.
	sender() func(tea.Msg)
	// paneArea is the pane area the remote pane is shown in.
	paneArea() protocol.Rect
	toast(text string) tea.Cmd
	// fail reports an error of a request whose answer only matters when
	// it fails.
	fail(err error)
}

// unqualified is a qualified id as the machine's own server names it.
func unqualified(id string) string {
	_, rest, _ := strings.Cut(id, "/")
	return rest
}

// remotePane is the pane a remote workspace shows: its active tab's
// focused pane, else its first.
func remotePane(snap *protocol.SessionSnapshot, workspace string) string {
	for _, w := range snap.Workspaces {
		if w.WorkspaceID != workspace {
			continue
		}
		for _, l := range snap.Layouts {
			if l.TabID == w.ActiveTabID && l.FocusedPaneID != "" {
				return l.FocusedPaneID
			}
		}
	}
	for _, p := range snap.Panes {
		if p.WorkspaceID == workspace {
			return p.PaneID
		}
	}
	return ""
}

// sync opens, moves or closes the remote link to match what is
// chosen; it runs after every message and does nothing when they match.
func (v *remoteView) sync() tea.Cmd {
	fm, selected := v.host.chosenRemote()
	pane := ""
	if fm != nil && v.host.dialMachine() != nil {
		pane = remotePane(fm.Snap, selected)
	}
	r := v.link
	if r != nil && pane != "" && r.machine == fm.Label {
		if r.pane != pane {
			r.pane, r.screen = pane, nil
			v.subscribe()
		}
		return nil // a link that drops redials by itself (retryRemote)
	}
	if r != nil {
		r.close()
		v.link = nil
	}
	if pane == "" || fm.State != machineOnline {
		// Nothing to show, or a machine the server cannot reach either:
		// a link is opened once it is online.
		return nil
	}
	v.gen++
	v.link = &remoteLink{machine: fm.Label, pane: pane, gen: v.gen, state: remoteConnecting, backoff: remoteFirstRetry}
	return v.dial()
}

// dial opens the link's two connections, off the program's loop.
func (v *remoteView) dial() tea.Cmd {
	r, dialer, send := v.link, v.host.dialMachine(), v.host.sender()
	gen, machine := r.gen, r.machine
	return func() tea.Msg {
		c, err := dialer(machine)
		if err != nil {
			return remoteDialedMsg{gen: gen, err: err}
		}
		req := newRPCConn(c, nil)
		if c, err = dialer(machine); err != nil {
			req.close()
			return remoteDialedMsg{gen: gen, err: err}
		}
		scr := newRPCConn(c, func(line []byte, _ bool) {
			var push struct {
				Event string               `json:"event"`
				Data  protocol.ScreenFrame `json:"data"`
			}
			if protocol.Unmarshal(line, &push) == nil && push.Event == protocol.ScreenFrameEvent && send != nil {
				send(remoteFrameMsg{gen: gen, f: &push.Data})
			}
		})
		go func() {
			select {
			case <-req.done:
			case <-scr.done:
			}
			if send != nil {
				send(remoteLostMsg{gen: gen})
			}
		}()
		return remoteDialedMsg{gen: gen, req: req, scr: scr}
	}
}

// subscribe streams the link's pane, in this client's pane area.
func (v *remoteView) subscribe() {
	r := v.link
	if r == nil || r.state != remoteLive {
		return
	}
	area := v.host.paneArea()
	// Sized to this client's area, as an attach is; an upstream Herdr
	// remote, which lacks the extension, keeps its own size quietly.
	r.scr.send("client.resize", protocol.ClientResizeParams{Cols: area.Width, Rows: area.Height}, nil)
	r.scr.send("screen.subscribe", protocol.ScreenSubscribeParams{PaneIDs: []string{unqualified(r.pane)}}, v.host.fail)
}

// update takes the link's messages; false: msg is not one.
func (v *remoteView) update(msg tea.Msg) (tea.Cmd, bool) {
	r := v.link
	switch msg := msg.(type) {
	case remoteDialedMsg:
		if r == nil || msg.gen != r.gen {
			for _, c := range []*rpcConn{msg.req, msg.scr} {
				if c != nil {
					c.close() // a link since replaced
				}
			}
			return nil, true
		}
		if msg.err != nil {
			return v.retry(), true
		}
		r.req, r.scr, r.state, r.backoff = msg.req, msg.scr, remoteLive, remoteFirstRetry
		v.subscribe()
	case remoteFrameMsg:
		if r != nil && msg.gen == r.gen && msg.f.PaneID == unqualified(r.pane) {
			if r.screen == nil {
				r.screen = &paneScreen{}
			}
			r.screen.apply(msg.f)
		}
	case remoteLostMsg:
		if r != nil && msg.gen == r.gen && r.state == remoteLive {
			return v.retry(), true
		}
	case remoteRedialMsg:
		if r != nil && msg.gen == r.gen {
			return v.dial(), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// retry marks the link reconnecting and dials again after its
// backoff, which doubles up to remoteMaxRetry.
func (v *remoteView) retry() tea.Cmd {
	r := v.link
	r.close()
	r.state = remoteReconnecting
	wait, gen := r.backoff, r.gen
	r.backoff = nextBackoff(r.backoff)
	return tea.Tick(wait, func(time.Time) tea.Msg { return remoteRedialMsg{gen: gen} })
}

// input writes a key to the remote pane shown; a machine that is
// not online, or a link that is down, refuses it with a toast.
func (v *remoteView) input(k tea.KeyPressMsg) tea.Cmd {
	fm, _ := v.host.chosenRemote()
	if fm == nil {
		return nil
	}
	if fm.State != machineOnline {
		return v.host.toast(fm.Label + " is " + machineStateText(*fm) + ": input not sent")
	}
	r := v.link
	if r == nil {
		return v.host.toast(fm.Label + ": this client cannot reach machines: input not sent")
	}
	if r.state != remoteLive {
		return v.host.toast(fm.Label + " is " + r.state + ": input not sent")
	}
	var modes protocol.ScreenModes
	if r.screen != nil {
		modes = r.screen.modes
	}
	if b, ok := keyBytes(k, modes); ok {
		r.req.send("pane.send_text", protocol.PaneSendTextParams{PaneID: unqualified(r.pane), Text: string(b)}, v.host.fail)
	}
	return nil
}

// title names the remote workspace shown: machine · workspace.
func (v *remoteView) title() string {
	fm, selected := v.host.chosenRemote()
	if fm == nil {
		return ""
	}
	title := fm.Label
	for _, w := range fm.Snap.Workspaces {
		if w.WorkspaceID == selected {
			title += " · " + w.Label
		}
	}
	return title
}

// draw fills the pane area while a remote workspace is shown: its
// pane when the link has streamed it, dimmed unless both the machine and
// the link are up; else why it is not shown.
func (v *remoteView) draw(c *canvas, g geometry, th *theme) {
	fm, _ := v.host.chosenRemote()
	if fm == nil {
		return
	}
	title := v.title()
	r := v.link
	live := fm.State == machineOnline && r != nil && r.state == remoteLive
	if r != nil && r.state != remoteLive {
		title += " · " + r.state
	}
	x, y, w, h := g.area.X, g.area.Y, g.area.Width, g.area.Height
	if w < 3 || h < 3 {
		return
	}
	th.box(c, x, y, w, h, " "+title+" ")
	if r != nil && r.screen != nil {
		r.screen.drawInto(c, x+1, y+1, w-2, h-2)
		if !live {
			for cy := y; cy < y+h; cy++ {
				for cx := x; cx < x+w; cx++ {
					c.restyle(cx, cy, func(st cellStyle) cellStyle {
						st.fg, st.attrs = th.dim.fg, st.attrs|protocol.ScreenDim
						return st
					})
				}
			}
		}
		return
	}
	text := fm.Label + " is " + machineStateText(*fm)
	if fm.Error != "" {
		text += ": " + fm.Error
	}
	if fm.State == machineOnline {
		text = "connecting to " + fm.Label + "…"
		if r == nil {
			text = "this client cannot reach " + fm.Label + " (no machine connection)"
		} else if r.state == remoteReconnecting {
			text = fm.Label + ": reconnecting"
		}
	}
	c.text(x+2, y+1, text, w-4, th.dim)
}

// cursor is the remote pane's cursor on screen, while its link is
// live and keys go to it (keys: the terminals have them).
func (v *remoteView) cursor(g geometry, keys bool) hostCursor {
	r := v.link
	fm, _ := v.host.chosenRemote()
	if r == nil || r.screen == nil || r.state != remoteLive || fm == nil || fm.State != machineOnline || !keys {
		return hostCursor{}
	}
	cur := r.screen.cursor
	x, y := g.area.X+1+cur.X, g.area.Y+1+cur.Y
	if !cur.Visible || cur.X < 0 || cur.Y < 0 || cur.X >= g.area.Width-2 || cur.Y >= g.area.Height-2 {
		return hostCursor{}
	}
	return hostCursor{x: x, y: y, visible: true, shape: cur.Shape}
}
