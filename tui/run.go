package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure an attached client.
type Options struct {
	// Socket is the server's API socket.
	Socket string
	// Cwd is where the first workspace of an empty session starts.
	Cwd string
	// ConfigPath is config.toml, for [keys] and [ui.toast]; "" skips it.
	ConfigPath string
	// Input and Output are the terminal (os.Stdin and os.Stdout when nil).
	Input  io.Reader
	Output io.Writer
	// Dial opens a connection to the server; nil dials Socket. A remote
	// client (herdr --remote) dials through ssh.
	Dial func() (net.Conn, error)
	// DialMachine opens a connection to a saved machine's server (by
	// label or id), for a remote workspace chosen in the sidebar; nil:
	// remote workspaces are listed but not shown.
	DialMachine func(machine string) (net.Conn, error)
	// NoSessionSwitch: the session chooser lists the sessions but does not
	// switch to one (the server is reached through ssh, or ends with this
	// client: --no-session).
	NoSessionSwitch bool
	// ClientOnly: this process runs no server. The client then keeps to
	// one processor (GOMAXPROCS 1): its work is small and its waits are
	// on Go's poller (input_linux.go), so a key, and a frame, runs from
	// the poller's wake to its write on one thread and wakes no other
	// (with more processors each hand-off between its goroutines woke an
	// idle thread, cold at a typist's pace). A server in the process
	// (--no-session) keeps every processor.
	ClientOnly bool
}

// ErrDetached is returned by Run when the user detached (prefix q).
var ErrDetached = errors.New("detached")

// link holds the client's connections; it is shared by the model and the
// reader goroutines, which hand what they read to the program with send.
type link struct {
	req     requester // the request connection (conn.go)
	scr, ev *rpcConn
	send    func(tea.Msg)
	socket  string
	// dialer opens a connection (Options.Dial); nil dials socket.
	dialer func() (net.Conn, error)
	// dialMachine is Options.DialMachine.
	dialMachine func(machine string) (net.Conn, error)
	// stopping: the server said it is stopping (reconnect.go).
	stopping atomic.Bool
	// reconnecting: the server went away; looking for it (reconnect.go).
	reconnecting bool
	// taskEvents: the event subscription carries the task events (a
	// server before the task board refuses them: tasks.go polls).
	taskEvents atomic.Bool
	// fleetEvents: the event subscription carries every machine's events
	// and machine_state_changed, so the fleet is read when one arrives
	// instead of on a timer (machines.go).
	fleetEvents atomic.Bool
}

// dial opens one more connection to the server; onPush runs on its reader.
func (l *link) dial(onPush func([]byte, bool)) (*rpcConn, error) {
	if l.dialer == nil {
		return dial(l.socket, onPush)
	}
	c, err := l.dialer()
	if err != nil {
		return nil, err
	}
	return newRPCConn(c, onPush), nil
}

// conns are the link's open connections.
func (l *link) conns() []requester {
	var cs []requester
	if l.req != nil {
		cs = append(cs, l.req)
	}
	for _, c := range []*rpcConn{l.ev, l.scr} {
		if c != nil { // a nil *rpcConn in the interface would not be nil
			cs = append(cs, c)
		}
	}
	return cs
}

func (l *link) close() {
	for _, c := range l.conns() {
		c.close()
	}
}

// Run attaches to the server and runs the client until the user detaches
// (ErrDetached) or the server goes away.
func Run(opts Options) error {
	if opts.ClientOnly {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	if opts.Input == nil {
		opts.Input = os.Stdin
	}
	if opts.Output == nil {
		opts.Output = os.Stdout
	}
	km, toastsOn, confirmClose, copyOnSelect := defaultKeymap(), false, true, true
	cfg := config.Default()
	if opts.ConfigPath != "" {
		km, _ = loadKeymap(opts.ConfigPath)
		confirmClose, copyOnSelect = loadUIFlags(opts.ConfigPath)
		if c, _, status := config.Load(opts.ConfigPath); status != config.StatusFailed {
			cfg = c
			km.bindCommands(cfg.Keys.Commands) // its problems are among ConfigDiagnostics'
		}
	}
	l := &link{socket: opts.Socket, dialer: opts.Dial, dialMachine: opts.DialMachine}
	defer l.close()
	if err := l.attach(opts); err != nil {
		return err
	}

	m := newModel(l, km, toastsOn)
	m.getenv = os.Getenv
	m.gfx.supported = kittyTerminal(os.Getenv)
	// Not herdr --remote, nor a terminal over SSH or in screen: the
	// server's files are the terminal's machine's.
	m.gfx.local = opts.Dial == nil && localTerminal(os.Getenv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends a notifier or player still running
	m.ctx = ctx
	defer m.notes.tones.remove()
	if opts.ConfigPath != "" {
		m.notes.configDir = filepath.Dir(opts.ConfigPath)
	}
	m.clientConfig.set(cfg, truecolorTerminal(os.Getenv("COLORTERM")))
	m.sidebar = !cfg.UI.SidebarStartCollapsed
	m.socket, m.configPath = opts.Socket, opts.ConfigPath
	// The chooser and the prompt run herdr; a client through ssh, or one
	// whose server ends with it, lists sessions but does not switch.
	m.tmux.herdr, m.tmux.canSwitch = newExecHerdr(opts.Socket), opts.Dial == nil && !opts.NoSessionSwitch
	if opts.ConfigPath != "" {
		m.diags = ConfigDiagnostics(opts.ConfigPath)
	}
	m.confirmClose, m.copyOnSelect = confirmClose, copyOnSelect
	// The client draws itself (render.go) and sets up the terminal
	// (outer.go); Bubble Tea reads and decodes the keys and runs the loop.
	in, stopIn := polledInput(opts.Input) // input_linux.go
	defer stopIn()
	p := tea.NewProgram(m, tea.WithoutRenderer(), tea.WithInput(in), tea.WithOutput(opts.Output))
	l.send = p.Send
	outer, err := openOuter(opts.Input, opts.Output, p.Send, cfg.UI.MouseCapture)
	if err != nil {
		return fmt.Errorf("set up the terminal: %w", err)
	}
	defer outer.close()
	m.term = outer

	if err := l.connect(); err != nil {
		return err
	}

	final, err := p.Run()
	if fm, ok := final.(*model); ok && fm.remote.link != nil {
		fm.remote.link.close() // ends the ssh to the machine shown
	}
	if m.gfx.supported && m.gfx.nextID > 0 {
		_, _ = io.WriteString(opts.Output, "\x1b_Ga=d,d=A,q=2\x1b\\") // the panes' images leave with the client
	}
	if err != nil {
		return err
	}
	return endOf(final, opts.Socket)
}

// attach opens the request connection and makes sure the session has a
// workspace to show (a new one in opts.Cwd).
func (l *link) attach(opts Options) error {
	req, err := l.dial(nil)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", opts.Socket, err)
	}
	l.req = req
	var snap protocol.SessionSnapshotResult
	if err := l.req.call("session.snapshot", nil, &snap); err != nil {
		return fmt.Errorf("read the session: %w", err)
	}
	if len(snap.Snapshot.Workspaces) > 0 {
		return nil
	}
	params := protocol.WorkspaceCreateParams{Focus: true}
	if opts.Cwd != "" {
		params.Cwd = &opts.Cwd
	}
	if err := l.req.call("workspace.create", params, nil); err != nil {
		return fmt.Errorf("create the first workspace: %w", err)
	}
	return nil
}

// endOf is Run's answer for how the client ended: detached, switching
// sessions, or the server lost or gone.
func endOf(final tea.Model, socket string) error {
	fm, ok := final.(*model)
	switch {
	case !ok:
		return nil
	case fm.detached:
		return ErrDetached
	case fm.tmux.switchTo != "":
		return switchErr(fm.tmux.switchTo)
	case fm.lost:
		return fmt.Errorf("lost the connection to the herdr server at %s", socket)
	}
	return fm.gone
}

// connect opens the event and screen connections (the request one is
// open) and watches all three: when one closes, the model hears lostMsg.
func (l *link) connect() error {
	ev, scr, err := l.dialStreams(l.req)
	l.ev, l.scr = ev, scr
	return err
}

// dialStreams opens the event and screen connections beside req.
func (l *link) dialStreams(req requester) (ev, scr *rpcConn, err error) {
	// Events first, then the snapshot the model asks for, so no change
	// falls between them.
	if ev, err = l.dial(func(line []byte, _ bool) {
		if isFleetEvent(line) {
			l.send(fleetChangedMsg{}) // another machine's, not this session's
			return
		}
		if isTaskEvent(line) {
			l.send(tasksChangedMsg{}) // the tasks, not the topology
			return
		}
		l.send(changedMsg{})
	}); err != nil {
		return nil, nil, fmt.Errorf("connect to %s: %w", l.socket, err)
	}
	if err := subscribeEvents(ev, &l.taskEvents, &l.fleetEvents); err != nil {
		ev.close()
		return nil, nil, fmt.Errorf("subscribe to events: %w", err)
	}
	if scr, err = l.dial(func(line []byte, more bool) {
		var push struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if protocol.Unmarshal(line, &push) != nil {
			return
		}
		switch push.Event {
		case protocol.ScreenFrameEvent:
			var f protocol.ScreenFrame
			if protocol.Unmarshal(push.Data, &f) == nil {
				l.send(frameMsg{f: &f, last: !more})
			}
		case protocol.GraphicsEvent: // a pane's graphics layers changed
			var u protocol.GraphicsUpdate
			if protocol.Unmarshal(push.Data, &u) == nil {
				l.send(graphicsMsg{&u})
			}
		case "client.toast": // notification.show
			var t noticeMsg
			if protocol.Unmarshal(push.Data, &t) == nil {
				l.send(t)
			}
		case protocol.PopupEvent: // a popup opened or closed
			var st protocol.PopupState
			if protocol.Unmarshal(push.Data, &st) == nil {
				l.send(popupMsg{st})
			}
		case protocol.AgentViewPushEvent: // agent.view.set|clear
			l.send(changedMsg{})
		case protocol.ClientFrontEvent: // the client that took the size went away
			l.send(frontAgainMsg{})
		case serverStoppingEvent: // read before the connection ends
			l.stopping.Store(true)
		case "client.window_title": // client.window_title.set|clear
			var t struct{ Title string }
			if protocol.Unmarshal(push.Data, &t) == nil {
				l.send(titleMsg{t.Title})
			}
		}
	}); err != nil {
		ev.close()
		return nil, nil, fmt.Errorf("connect to %s: %w", l.socket, err)
	}
	go func() {
		select {
		case <-ev.done:
		case <-scr.done:
		case <-req.ended():
		}
		l.send(lostMsg{})
	}()
	return ev, scr, nil
}
