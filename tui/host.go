package tui

import (
	"context"
	"net"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// clientHost is the client as its components see it: what a component
// reads of the root and asks it to do (a call to the server, the pane
// area claimed again), each component through the small interface it
// declares, so a test drives the component with a fake instead of a model
// and a server. It is glue, with no state of its own.
type clientHost struct {
	*session
	sessionView
	clientActions
}

// sessionView is what components read of the client besides the session
// (its snapshot and the questions asked of it are session's, embedded in
// clientHost): the config, the window and the other components' state.
type sessionView struct{ m *model }

// clientActions is what components ask the client to do: calls to the
// server, toasts, the size claimed again.
type clientActions struct{ m *model }

func hostOf(m *model) clientHost {
	return clientHost{&m.session, sessionView{m}, clientActions{m}}
}

// rpc calls on the request connection as it is now (a reconnect, or a
// test, replaces it); nil while there is none.
func (h clientActions) rpc() rpcFunc {
	if h.m.link == nil || h.m.link.req == nil {
		return nil
	}
	return h.m.link.req.call
}

func (h sessionView) tasksEvented() bool {
	return h.m.link != nil && h.m.link.taskEvents.Load()
}

func (h clientActions) claimSize(force bool) { h.m.claimSize(force) }

// copyCall is how copy mode and links call the server: the request
// connection.
func (h clientActions) copyCall() rpcFunc { return h.m.link.req.call }

func (h sessionView) screen(paneID string) *paneScreen { return h.m.screens[paneID] }
func (h clientActions) toast(text string) tea.Cmd      { return h.m.toast.show(text) }
func (h clientActions) yanked(text string, kept protocol.BufferInfo, err error) tea.Cmd {
	return h.m.clip.yanked(text, kept, err)
}

func (h sessionView) shownConfig() config.Config {
	c := h.m.cfg
	c.UI.SidebarWidth = h.m.ui.SidebarWidth
	return c
}

func (h sessionView) configFile() string { return h.m.configPath }

// settingSaved applies config.toml after the settings screen wrote it;
// a sidebar width set there is the session's too (it wins over the
// file's, so both move).
func (h clientActions) settingSaved(section, key, value string) {
	m := h.m
	width := section == "ui" && key == "sidebar_width"
	if width {
		m.sessionWidth, _ = strconv.Atoi(value)
	}
	m.applyConfigFile()
	if width {
		m.side.keepWidth(m.sessionWidth)
	}
}

func (h sessionView) gitShown() bool { return gitShown(h.m.ui) }

func (h sessionView) fleetEvented() bool { return h.m.link != nil && h.m.link.fleetEvents.Load() }

func (h sessionView) chosenRemote() (*fleetMachine, string) {
	return h.m.fleet.remoteWorkspace(h.m.fleet.selected), h.m.fleet.selected
}

func (h clientActions) dialMachine() func(machine string) (net.Conn, error) {
	if h.m.link == nil {
		return nil
	}
	return h.m.link.dialMachine
}

func (h clientActions) sender() func(tea.Msg) {
	if h.m.link == nil {
		return nil
	}
	return h.m.link.send
}

func (h sessionView) paneArea() protocol.Rect { return h.m.geometry().area }
func (h clientActions) fail(err error)        { h.m.fail(err) }

func (h sessionView) toastConfig() config.Toast { return h.m.ui.Toast }
func (h sessionView) soundConfig() config.Sound { return h.m.ui.Sound }
func (h sessionView) getenv(key string) string  { return h.m.getenv(key) }
func (h sessionView) context() context.Context  { return h.m.ctx }
func (h clientActions) toOuter(b []byte)        { h.m.toHost = append(h.m.toHost, b...) }
func (h clientActions) nextToast() int          { return h.m.toast.next() }

func (h sessionView) watched() []string { return h.m.watched }

func (h clientActions) unwatchGraphics() {
	h.m.link.scr.send("screen.subscribe", protocol.ScreenSubscribeParams{PaneIDs: h.m.watched}, h.m.fail)
}

// paneInsides are the insides of the focused tab's panes drawn (the
// zoomed one alone), in window cells; none while an overlay covers them.
func (h sessionView) paneInsides() map[string]protocol.Rect {
	m := h.m
	out := map[string]protocol.Rect{}
	l, ok := m.focusedLayout()
	if !ok || m.popup != nil || m.mode == modeHelp || m.mode == modePicker {
		return out
	}
	g := m.geometry()
	for _, p := range l.Panes {
		if l.Zoomed && p.PaneID != l.FocusedPaneID {
			continue
		}
		r := p.Rect
		if l.Zoomed {
			r = l.Area
		}
		x, y := g.area.X+r.X+1, g.area.Y+r.Y+1 // inside the frame
		w, hh := min(r.Width, m.width-x+1)-2, min(r.Height, m.height-y+1)-2
		out[p.PaneID] = protocol.Rect{X: x, Y: y, Width: w, Height: hh}
	}
	return out
}

func (h clientActions) focusWorkspace(id string) { h.m.nav.focusWorkspace(id) }
func (h sessionView) statusIcon(s protocol.AgentStatus) (string, cellStyle) {
	return h.m.theme.statusIcon(s)
}
func (h sessionView) confirmClose() bool               { return h.m.confirmClose }
func (h clientActions) send(method string, params any) { h.m.call(method, params) }

func (h clientActions) flushInput() { h.m.input.flush() }

// unfoldGroup shows a folded worktree group again (the session keeps it).
func (h clientActions) unfoldGroup(key string) {
	if h.m.side.collapsed[key] {
		h.m.side.toggleGroup(key)
	}
}

func (h sessionView) popupTerminal() string {
	if h.m.popup == nil {
		return ""
	}
	return h.m.popup.st.TerminalID
}

func (h clientActions) sendThen(method string, params any, done func(error)) {
	h.m.link.req.sendThen(method, params, done)
}

func (h sessionView) uiConfig() *config.UI                             { return &h.m.ui }
func (h sessionView) th() *theme                                       { return h.m.theme }
func (h sessionView) width() int                                       { return h.m.width }
func (h sessionView) height() int                                      { return h.m.height }
func (h sessionView) expanded() bool                                   { return h.m.sidebar }
func (h sessionView) gitMarks() map[string]protocol.WorkspaceGitStatus { return h.m.git.st }
func (h sessionView) fleet() *fleetView                                { return &h.m.fleet }

func (h clientActions) keepWidth(w int) {
	h.m.sessionWidth = w
	h.m.side.keepWidth(w)
}

func (h sessionView) remoteTitle() (string, bool) {
	if h.m.fleet.selected == "" {
		return "", false
	}
	return h.m.remote.title(), true
}

func (h sessionView) copyView() *copyMode {
	if h.m.mode != modeCopy {
		return nil
	}
	return &h.m.copy
}

func (h sessionView) selection() *mouseSel { return h.m.msel.sel }

func (h clientActions) openWorkspaceMenu(ev mouseMsg, id string) { h.m.menus.openWorkspace(ev, id) }

func (h clientActions) openGlobalMenu(ev mouseMsg) {
	if menu := h.m.tasks.globalMenu(ev); menu != nil {
		h.m.menus.show(menu)
	}
}

func (h clientActions) openTabMenu(ev mouseMsg, id string) {
	h.m.menus.show(&menuState{kind: menuTab, id: id, x: ev.X, y: ev.Y, items: []string{itemNewTab, itemRename, itemClose}})
}

func (h clientActions) clickLink(paneID string, col, row int) tea.Cmd {
	return activateLink(h.copyCall(), h.m.screens[paneID], paneID, col, row)
}
func (h clientActions) sendInput(paneID string, b []byte)   { h.m.input.add(paneID, b) }
func (h clientActions) selectPress(paneID string, x, y int) { h.m.msel.press(paneID, x, y) }
func (h clientActions) openPaneMenu(ev mouseMsg, id string) { h.m.menus.openPane(ev, id) }

func (h sessionView) worktreeGroups() map[string]string { return h.m.side.worktreeGroups() }
func (h sessionView) groupFolded(key string) bool       { return h.m.side.collapsed[key] }
func (h clientActions) toggleGroup(key string)          { h.m.side.toggleGroup(key) }
func (h clientActions) clearSelection()                 { h.m.msel.sel = nil }
func (h clientActions) startRename(what, method, id, current string) {
	h.m.rename.start(what, method, id, current)
}
func (h clientActions) createThenName(method string, params any) tea.Cmd {
	return h.m.rename.createThenName(method, params)
}
func (h clientActions) startWorktree(workspaceID string) { h.m.rename.startWorktree(workspaceID) }
func (h clientActions) askClose(req closeReq, panes []string) tea.Cmd {
	return h.m.confirm.ask(req, panes)
}
func (h clientActions) askCloseTab(id string) tea.Cmd     { return h.m.confirm.askTab(id) }
func (h clientActions) taskMenuItem(item string) tea.Cmd  { return h.m.tasks.menuItem(item) }
func (h clientActions) setToastText(text string)          { h.m.toast.text = text }
func (h sessionView) socketPath() string                  { return h.m.socket }
func (h sessionView) remoteWorkspaces() []string          { return h.m.fleet.workspaceIDs() }
func (h sessionView) shownRemote() string                 { return h.m.fleet.selected }
func (h sessionView) sidebarAgents() []protocol.AgentInfo { return h.m.side.panelAgents() }
func (h sessionView) attention() string                   { return h.m.notes.attention }
func (h clientActions) takeAttention()                    { h.m.notes.attention = "" }

// showRemote shows a machine's workspace, or the local session's again
// (""); the local session's focus is left where it is.
func (h clientActions) showRemote(id string) {
	h.m.fleet.selected = id
	if id != "" {
		h.m.side.followFocusedSpace()
	}
}
func (h clientActions) corner(n notice) tea.Cmd { return h.m.notes.showCorner(n) }
