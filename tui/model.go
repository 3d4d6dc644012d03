package tui

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Messages the program receives besides keys, mouse and window sizes.
type (
	// changedMsg says an event arrived: the structure may have changed.
	changedMsg struct{}
	// snapshotMsg carries a fresh session.snapshot.
	snapshotMsg struct {
		snap protocol.SessionSnapshot
		view protocol.AgentViewList // the agent view, asked right after
		err  error
	}
	// frameMsg carries one screen frame; last: no more lines were waiting
	// on the screen connection behind it.
	frameMsg struct {
		f    *protocol.ScreenFrame
		last bool
	}
	// lostMsg says a connection to the server closed.
	lostMsg struct{}
	// toastMsg shows a message for a few seconds.
	toastMsg struct{ text string }
	// noticeMsg is a notification.show the server pushed (client.toast).
	// Delivery is the server's [ui.toast] delivery, which answered it shown.
	noticeMsg struct{ Title, Body, Position, Sound, Delivery string }
	// agentDue comes delay_seconds after an agent's change: it notifies
	// if the agent still has that status.
	agentDue struct {
		paneID string
		status protocol.AgentStatus
	}
	// titleMsg sets the outer window title a program asked for ("" = ours).
	titleMsg struct{ title string }
	// toastExpired hides toast number seq.
	toastExpired struct{ seq int }
	// sentMsg is the answer to the write in flight to a pane.
	sentMsg struct {
		paneID string
		b      []byte
		err    error
	}
	// retryMsg offers refused input to its pane again.
	retryMsg struct {
		paneID string
		b      []byte
	}
	// drainMsg comes after the messages queued with the one that asked for
	// it: the input they produced is sent and the screen drawn, once.
	drainMsg struct{}
)

// drain is the command that asks for a drainMsg.
func drain() tea.Msg { return drainMsg{} }

// mode is what keys currently do.
type mode int

const (
	modeTerminal mode = iota // keys go to the focused pane
	modePrefix               // the next key is a binding
	modeResize               // h/j/k/l move the focused pane's border
	modeRename               // keys edit a label
	modeHelp                 // any key closes the help
	modePicker               // the workspace picker
	modeNavigate             // arrows and h/j/k/l move between workspaces, tabs, panes
	modeConfirm              // y/n before closing something that runs a program
	modeCopy                 // copy mode: scroll, search, select, copy
	modeSettings             // the settings screen (settings.go)
	modeMenu                 // a right-click menu (menu.go)
	modeDiff                 // the review diff view (reviewdiff.go)
	modeInbox                // the inbox view (inboxview.go)
)

// toastTime is how long a toast stays.
const toastTime = 4 * time.Second

// activeAfter is how long a client may be idle before its next key claims
// the terminal size again (another client may have taken it meanwhile).
const activeAfter = time.Second

// model is the Bubble Tea model. It holds the latest snapshot and the
// screens of the panes it shows; everything else lives in the server.
type model struct {
	link *link
	keys *keymap
	// clientConfig is config.toml as the client draws and acts with it
	// (uiconfig.go).
	clientConfig
	// notes delivers notifications (notify.go) and plays sounds (sound.go).
	notes notifier
	diags diagLines // config problems shown after attaching (diagnostics.go)
	git   gitMarks  // sidebar git marks (git.go)
	// side is the sidebar (sidebar.go), tabs the tab bar (view.go).
	side sidebar
	tabs tabBar
	// panes draws the focused tab's panes (view.go).
	panes paneView
	// getenv reads the client's environment (os.Getenv; a fake in tests).
	getenv func(string) string
	// socket is the server's, for [[keys.command]]s.
	socket string
	// ctx ends the commands the client started when it exits.
	ctx context.Context

	// session is the snapshot and the agent view as last seen, and the
	// questions asked of them (session.go).
	session
	refreshing bool // a snapshot request is out
	stale      bool // an event arrived while it was
	screens    map[string]*paneScreen
	watched    []string
	gfx        graphicsState // pane graphics (graphics.go)
	// popup is the session's popup while it is open (popup.go).
	popup *popupView
	// fleet is the saved machines and their sessions (machines.go);
	// remote the connection showing a remote workspace's pane (remote.go).
	fleet  fleetView
	tasks  taskPanel  // the task dock, board and activity modal (tasks.go)
	remote remoteView // a remote workspace shown (remote.go)

	width, height int
	sidebar       bool
	sentArea      [2]int
	lastActive    time.Time

	mode     mode
	rename   labelPrompt     // the label prompt (prompt.go)
	picker   workspacePicker // the workspace picker (nav.go)
	copy     copyMode        // copy mode (copy.go)
	confirm  closeConfirm    // the question before a close (nav.go)
	settings settingsScreen  // the settings screen (settings.go)
	diff     diffView        // the review diff view (reviewdiff.go)
	inbox    inboxView       // the inbox view (inboxview.go)
	msel     mouseSelect     // a mouse selection in a pane (mousesel.go)
	// focusHistory is the focused pane and the one before (last_pane).
	focusHistory paneHistory
	// tmux is the session chooser, the command prompt and the layout cycle
	// (herdrcmd.go).
	tmux tmuxParts
	// nav moves between workspaces, tabs and agents (nav.go).
	nav navigator
	// keyCmds runs the [[keys.command]]s (keycmd.go).
	keyCmds keyCommands
	// clip sends copies out and pastes buffers (buffer.go).
	clip  clipboard
	toast toastLine // the tab bar's message (toast.go)
	title string
	// customTitle is the window title set through client.window_title.set.
	customTitle string

	// menus is the right-click menu (menu.go).
	menus menus

	detached, lost bool
	gone           error // ErrServerStopped or ErrServerGone: not coming back

	// term is the outer terminal (outer.go).
	term      terminal
	sw        screenWriter
	spare     *canvas // a canvas to draw the next frame in
	sentTitle string
	// toHost are bytes for the outer terminal sent with the next frame
	// (BEL, OSC 52).
	toHost []byte
	// input is what keys produced on its way to the panes (inputq.go).
	input       inputQueue
	drainQueued bool

	// rows is what changed since the last draw: all of it, or the rows
	// frames changed (rowdraw.go).
	rows rowsDue
}

func newModel(l *link, km *keymap, toastsOn bool) *model {
	m := &model{link: l, keys: km, sidebar: true, screens: map[string]*paneScreen{}, rows: rowsDue{whole: true}}
	m.clientConfig = clientConfig{toastsOn: toastsOn, confirmClose: true, copyOnSelect: true}
	m.getenv = func(string) string { return "" }
	m.ctx = context.Background()
	// The components, each given the client through its host (host.go).
	m.notes = notifier{tones: &toneFiles{}, host: hostOf(m)}
	m.tasks = newTaskPanel(hostOf(m), &m.mode)
	m.copy = copyMode{host: hostOf(m), mode: &m.mode}
	m.settings = settingsScreen{host: hostOf(m), mode: &m.mode}
	m.diff = newDiffView(hostOf(m))
	m.inbox = newInboxView(hostOf(m))
	m.git = gitMarks{host: hostOf(m)}
	m.fleet = fleetView{host: hostOf(m)}
	m.remote = remoteView{host: hostOf(m)}
	m.gfx.host = hostOf(m)
	m.msel.host = hostOf(m)
	m.input = inputQueue{inFlight: map[string]bool{}, host: hostOf(m)}
	m.side = sidebar{h: hostOf(m)}
	m.tabs = tabBar{h: hostOf(m)}
	m.panes = paneView{h: hostOf(m)}
	m.rename = labelPrompt{host: hostOf(m), mode: &m.mode}
	m.picker = workspacePicker{host: hostOf(m), mode: &m.mode}
	m.confirm = closeConfirm{host: hostOf(m), mode: &m.mode}
	m.menus = menus{h: hostOf(m), mode: &m.mode}
	m.tmux = tmuxParts{h: hostOf(m), mode: &m.mode}
	m.nav = navigator{h: hostOf(m), mode: &m.mode}
	m.keyCmds = keyCommands{h: hostOf(m)}
	m.clip = clipboard{h: hostOf(m)}
	m.clientConfig.set(config.Default(), true)
	return m
}

// Init asks for the first snapshot.
func (m *model) Init() tea.Cmd {
	m.refreshing = true
	if len(m.diags) > 0 {
		return tea.Batch(m.link.fetchSnapshot(), m.link.fetchUIState(), m.fleet.fetch(), m.tasks.fetchTasks(), tea.Tick(diagTime, func(time.Time) tea.Msg { return diagExpired{} }))
	}
	return tea.Batch(m.link.fetchSnapshot(), m.link.fetchUIState(), m.fleet.fetch(), m.tasks.fetchTasks())
}

// fetchSnapshot asks for a session.snapshot and the agent view.
func (l *link) fetchSnapshot() tea.Cmd {
	req := l.req
	return func() tea.Msg {
		var res protocol.SessionSnapshotResult
		if err := req.call("session.snapshot", nil, &res); err != nil {
			return snapshotMsg{err: err}
		}
		// The agent view is asked next on the same connection, so it is
		// at least as new as the snapshot; a server without it has none.
		var view protocol.AgentViewList
		_ = req.call("agent.view.get", nil, &view)
		return snapshotMsg{snap: res.Snapshot, view: view}
	}
}

// Update implements tea.Model. Every message but drainMsg may change what
// is shown or produce input, so it asks for one drain; the messages already
// queued (the rest of a burst of keys, frames) are handled before it. Two
// on a keystroke's path change nothing shown and ask for none: a key typed
// into the pane (its echo's frame draws) and the answer to its write.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(drainMsg); ok {
		m.drainQueued = false
		m.input.flush()
		m.drawChanged()
		return m, nil
	}
	if s, ok := msg.(sentMsg); ok && s.err == nil {
		// The answer to a pane's write changes nothing shown: no drain and
		// no draw (a draw here, a whole canvas, came just as the echo's
		// frame arrived, which then waited for it); input typed meanwhile
		// goes now.
		m.input.sent(s)
		m.input.flush()
		return m, nil
	}
	// A key typed into the focused pane with nothing shown that typing
	// puts away (the config's problems, a mouse selection) changes
	// nothing on screen itself: the echo's frame draws what it does.
	_, pressed := msg.(tea.KeyPressMsg)
	passThrough := pressed && m.mode == modeTerminal && m.diags == nil && m.msel.sel == nil && !m.input.waiting()
	cmd := m.update(msg)
	if passThrough && cmd == nil && m.mode == modeTerminal && m.input.waiting() {
		m.input.flush()
		if rc := m.remote.sync(); rc != nil {
			return m, rc
		}
		return m, nil
	}
	if isKey(msg) && m.input.waiting() {
		// A key for a pane goes out now, from this turn: waiting for the
		// drain cost two goroutine hand-offs before the request was even
		// written. Keys typed while it is in flight are still coalesced
		// (one pane.send_text in flight per pane); mouse motion, which
		// comes in bursts nobody waits on, keeps waiting for the drain.
		m.input.flush()
	}
	if rc := m.remote.sync(); rc != nil { // a remote workspace chosen, left, or its pane changed
		cmd = tea.Batch(cmd, rc)
	}
	f, isFrame := msg.(frameMsg)
	if !isFrame {
		m.rows.all() // it may have changed anything: the next draw is whole
	}
	if isFrame && f.last && !m.drainQueued {
		// Nothing queued behind the frame on its socket: draw it now (the
		// echo someone waits for) rather than after a round through Bubble
		// Tea's command goroutines.
		m.input.flush()
		m.drawChanged()
		return m, cmd
	}
	if !m.drainQueued {
		m.drainQueued = true
		cmd = tea.Batch(cmd, drain)
	}
	return m, cmd
}

// draw brings the outer terminal up to date.
func (m *model) draw() {
	if m.width <= 0 || m.height <= 0 {
		return
	}
	extra := m.toHost
	m.toHost = nil
	if m.title != m.sentTitle {
		extra = append(extra, "\x1b]2;"+m.title+"\x07"...)
		m.sentTitle = m.title
	}
	// Draw into the canvas before last (the writer keeps the last one).
	old := m.sw.prev
	full := old == nil || old.w != m.width || old.h != m.height // the frame clears the screen
	b := m.sw.frame(m.canvas(m.spare), m.hostCursor(), extra, m.gfx.bytes(full))
	m.spare = old
	m.rows.drawn()
	if len(b) > 0 {
		_, _ = m.term.Write(b)
	}
}

// update routes a message to the part of the client that owns it; each
// handler says whether the message was its.
func (m *model) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.remote.update(msg); ok {
		return cmd
	}
	if cmd, ok := m.tasks.update(msg); ok {
		return cmd
	}
	if cmd, ok := m.fleet.update(msg); ok {
		return cmd
	}
	if cmd, ok := m.diff.update(msg); ok {
		return cmd
	}
	if cmd, ok := m.inbox.update(msg); ok {
		return cmd
	}
	if cmd, ok := m.updateSession(msg); ok {
		return cmd
	}
	if cmd, ok := m.updateLink(msg); ok {
		return cmd
	}
	if cmd, ok := m.updateNotices(msg); ok {
		return cmd
	}
	cmd, _ := m.updateInput(msg)
	return cmd
}

// updateSession takes the session's structure and its screens.
func (m *model) updateSession(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Width <= 0 || msg.Height <= 0 {
			// Bubble Tea's own start-up size when it does not own the
			// terminal (outer.go watches the size): not a size to draw in.
			return nil, true
		}
		m.width, m.height = msg.Width, msg.Height
		m.gfx.cellW, m.gfx.cellH = m.term.cellPixels()
		m.sw.prev = nil // the terminal may have reflowed what it showed: redraw all
		m.claimSize(true)
	case changedMsg:
		if m.refreshing {
			m.stale = true
			return nil, true
		}
		m.refreshing = true
		return m.link.fetchSnapshot(), true
	case snapshotMsg:
		return m.snapshotArrived(msg), true
	case uiStateMsg:
		// A server without the method leaves this client's own (nothing
		// folded, config.toml's width).
		if msg.err == nil {
			m.side.takeUIState(msg.st)
			m.clientConfig.keepSessionWidth(msg.st.SidebarWidth)
			m.claimSize(false)
		}
	case popupMsg:
		m.setPopup(msg.st)
	case graphicsMsg:
		return m.gfx.apply(msg.u), true
	case frameMsg:
		return m.frameArrived(msg.f), true
	default:
		return nil, false
	}
	return nil, true
}

// snapshotArrived applies a snapshot, and asks again when an event came
// while it was on its way.
func (m *model) snapshotArrived(msg snapshotMsg) tea.Cmd {
	m.refreshing = false
	var cmds []tea.Cmd
	if msg.err == nil {
		cmds = m.applySnapshot(msg.snap, msg.view)
	}
	if m.stale {
		m.stale, m.refreshing = false, true
		cmds = append(cmds, m.link.fetchSnapshot())
	}
	return tea.Batch(cmds...)
}

// frameArrived applies a screen frame to its pane (or the popup).
func (m *model) frameArrived(f *protocol.ScreenFrame) tea.Cmd {
	if m.popup.frame(f) {
		m.rows.all()
		return nil
	}
	s := m.screens[f.PaneID]
	if s == nil {
		if !slices.Contains(m.watched, f.PaneID) {
			return nil
		}
		s = &paneScreen{}
		m.screens[f.PaneID] = s
	}
	m.rows.frame(s, f)
	s.apply(f)
	m.copy.copyFrame(f.PaneID)
	cmd := m.git.afterOutput() // output may have been a commit or a checkout
	if f.Clipboard != "" {
		m.toHost = append(m.toHost, "\x1b]52;c;"+f.Clipboard+"\a"...) // a program copied
	}
	if f.Bell > 0 {
		m.toHost = append(m.toHost, '\a') // the pane rang: so does the outer terminal
	}
	return cmd
}

// updateLink follows the connection to the server.
func (m *model) updateLink(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case lostMsg:
		return m.link.reconnect(), true
	case reconnectedMsg:
		// Start over on the new connections: every visible pane is
		// subscribed again (its first frames are whole) from a fresh
		// snapshot.
		m.link.reconnected(msg)
		m.watched = nil
		clear(m.screens)
		m.gfx.drop(nil) // the new subscription sends every image again
		m.refreshing = true
		m.fleet.fetching = false // a read on the lost connection answered with an error, or never will
		return tea.Batch(m.link.fetchSnapshot(), m.link.fetchUIState(), m.fleet.fetch()), true
	case reconnectFailedMsg:
		m.lost = true
		return tea.Quit, true
	case serverGoneMsg:
		m.gone = ErrServerGone
		if msg.stopped {
			m.gone = ErrServerStopped
		}
		return tea.Quit, true
	case frontAgainMsg:
		m.claimSize(true) // the panes take this client's size back at once
		return nil, true
	}
	return nil, false
}

// updateNotices: toasts, notifications, sounds, git marks, the title.
func (m *model) updateNotices(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case toastMsg:
		return m.toast.show(msg.text), true
	case noticeMsg:
		return m.notes.notify(notice{title: msg.Title, body: msg.Body, position: msg.Position, sound: msg.Sound, delivery: msg.Delivery}), true
	case agentDue:
		return m.notes.agentWasDue(msg), true
	case gitMsg:
		m.git.answer(msg)
	case gitDue:
		return tea.Batch(m.git.focused()...), true
	case diagExpired:
		m.diags = nil
	case cornerExpired:
		m.notes.expire(msg)
	case systemDone:
		return m.notes.systemFailed(msg), true
	case soundPlayed:
		if msg.bell {
			m.toHost = append(m.toHost, '\a') // no player: the terminal's bell
		}
	case titleMsg:
		m.customTitle = protocol.Printable(msg.title)
		m.title = m.session.windowTitle(m.customTitle, m.ui.WindowTitle)
	case toastExpired:
		m.toast.expire(msg)
	default:
		return nil, false
	}
	return nil, true
}

// updateInput: keys, the mouse, and the answers to what they asked.
func (m *model) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.key(plainKey(msg)), true
	case tea.PasteMsg:
		return m.key(pasteKey(msg.Content)), true
	case tea.MouseMsg:
		return m.mouse(mouseOf(msg)), true
	case mouseMsg: // already in the client's form
		return m.mouse(msg), true
	case sentMsg:
		return m.input.sent(msg), true
	case retryMsg:
		m.input.retry(msg)
		return nil, true
	case pasteBufferMsg:
		return m.clip.paste(), true // buffer.go
	case linkMsg:
		if msg.err != nil {
			return m.toast.show("open link: " + msg.err.Error()), true
		}
		return nil, true
	case commandDone:
		return m.keyCmds.finished(msg), true
	case createdMsg:
		return m.rename.created(msg), true
	case worktreeCreatedMsg:
		return m.rename.worktreeCreated(msg), true
	case closeCheckedMsg:
		m.confirm.checked(msg)
		return nil, true
	case copyAnswerMsg:
		return m.copy.copyAnswered(msg), true
	case partMsg:
		return msg.apply(&m.tmux), true // the chooser, the prompt, the layout cycle
	}
	return nil, false
}

// fail reports an API error as a toast, from any goroutine.
func (m *model) fail(err error) {
	if m.link.send != nil {
		m.link.send(toastMsg{text: err.Error()})
	}
}

// call sends a request whose answer only matters when it fails: the
// change itself comes back as events.
func (m *model) call(method string, params any) {
	m.input.flush() // keys typed before the binding reach their pane first
	m.link.req.send(method, params, m.fail)
}

// applySnapshot takes a new snapshot and follows it: the panes to stream,
// the window title, toasts for agents that need attention.
func (m *model) applySnapshot(snap protocol.SessionSnapshot, view protocol.AgentViewList) []tea.Cmd {
	clean(&snap)
	clean(&view) // its label is agent.view.set's caller's
	m.snap, m.haveSnap, m.view = snap, true, view
	m.focusHistory.note(m.focusedPaneID())
	m.nav.followSnapshot(&snap)
	var cmds []tea.Cmd
	visible := m.visiblePanes()
	if !slices.Equal(visible, m.watched) {
		m.watched = visible
		for id := range m.screens {
			if !slices.Contains(visible, id) {
				delete(m.screens, id)
			}
		}
		m.gfx.drop(visible)
		m.link.scr.send("screen.subscribe", protocol.ScreenSubscribeParams{PaneIDs: visible, Graphics: m.gfx.want()}, m.fail)
	}
	m.title = m.session.windowTitle(m.customTitle, m.ui.WindowTitle)
	m.side.followFocusedSpace()
	// A tab bar hidden or shown again (hide_tab_bar_when_single_tab)
	// changes the pane area this client gave the server.
	if g := m.geometry(); m.sentArea != [2]int{} && m.sentArea != [2]int{g.area.Width, g.area.Height} {
		m.claimSize(true)
	}
	cmds = append(cmds, m.git.ask("")...)
	if c := m.inbox.follow(snap.Agents); c != nil {
		cmds = append(cmds, c)
	}
	return append(cmds, m.notes.agentChanges()...)
}

// frontAgainMsg says this client is in front again: the client that took
// the size from it went away (protocol.ClientFrontEvent).
type frontAgainMsg struct{}

// claimSize tells the server this client's pane area, making it the size
// every pane follows. force sends it even when it was sent before.
func (m *model) claimSize(force bool) {
	g := m.geometry()
	area := [2]int{g.area.Width, g.area.Height}
	if area[0] < 1 || area[1] < 1 {
		return
	}
	now := time.Now()
	if !force && area == m.sentArea && now.Sub(m.lastActive) < activeAfter {
		m.lastActive = now
		return
	}
	m.lastActive, m.sentArea = now, area
	m.link.scr.send("client.resize", protocol.ClientResizeParams{Cols: area[0], Rows: area[1], CellWidthPx: m.gfx.cellW, CellHeightPx: m.gfx.cellH, KittyGraphicsLocal: m.gfx.supported && m.gfx.local}, m.fail)
}

// agentName is how a pane's agent is named in lists.
func agentName(p protocol.PaneInfo) string {
	switch {
	case p.DisplayAgent != nil && *p.DisplayAgent != "":
		return *p.DisplayAgent
	case p.Agent != nil && *p.Agent != "":
		return *p.Agent
	case p.Label != nil && *p.Label != "":
		return *p.Label
	}
	return p.PaneID
}
