package tui

import (
	"context"
	"net"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// clientHost is the client as its components see it: the few things a
// component asks of the root (a call to the server, the pane area claimed
// again), each behind the small interface the component declares, so a
// test drives the component with a fake instead of a model and a server.
type clientHost struct{ m *model }

// rpc calls on the request connection as it is now (a reconnect, or a
// test, replaces it); nil while there is none.
func (h clientHost) rpc() rpcFunc {
	if h.m.link == nil || h.m.link.req == nil {
		return nil
	}
	return h.m.link.req.call
}

func (h clientHost) tasksEvented() bool {
	return h.m.link != nil && h.m.link.taskEvents.Load()
}

func (h clientHost) claimSize(force bool) { h.m.claimSize(force) }

func (h clientHost) copyCall() rpcFunc                { return h.m.copyCallFunc() }
func (h clientHost) screen(paneID string) *paneScreen { return h.m.screens[paneID] }
func (h clientHost) toast(text string) tea.Cmd        { return h.m.showToast(text) }
func (h clientHost) yanked(text string, kept protocol.BufferInfo, err error) tea.Cmd {
	return h.m.yanked(text, kept, err)
}

func (h clientHost) shownConfig() config.Config {
	c := h.m.cfg
	c.UI.SidebarWidth = h.m.ui.SidebarWidth
	return c
}

func (h clientHost) configFile() string { return h.m.configPath }

// settingSaved applies config.toml after the settings screen wrote it;
// a sidebar width set there is the session's too (it wins over the
// file's, so both move).
func (h clientHost) settingSaved(section, key, value string) {
	m := h.m
	width := section == "ui" && key == "sidebar_width"
	if width {
		m.sessionWidth, _ = strconv.Atoi(value)
	}
	m.applyConfigFile()
	if width {
		m.setSessionWidth(m.sessionWidth)
	}
}

func (h clientHost) snapshot() *protocol.SessionSnapshot { return &h.m.snap }
func (h clientHost) gitShown() bool                      { return gitShown(h.m.ui) }

func (h clientHost) fleetEvented() bool { return h.m.link != nil && h.m.link.fleetEvents.Load() }

func (h clientHost) chosenRemote() (*fleetMachine, string) {
	return h.m.fleet.remoteWorkspace(h.m.fleet.selected), h.m.fleet.selected
}

func (h clientHost) dialMachine() func(machine string) (net.Conn, error) {
	if h.m.link == nil {
		return nil
	}
	return h.m.link.dialMachine
}

func (h clientHost) sender() func(tea.Msg) {
	if h.m.link == nil {
		return nil
	}
	return h.m.link.send
}

func (h clientHost) paneArea() protocol.Rect { return h.m.geometry().area }
func (h clientHost) fail(err error)          { h.m.fail(err) }

func (h clientHost) toastConfig() config.Toast { return h.m.ui.Toast }
func (h clientHost) getenv(key string) string  { return h.m.getenv(key) }
func (h clientHost) context() context.Context  { return h.m.ctx }
func (h clientHost) toOuter(b []byte)          { h.m.toHost = append(h.m.toHost, b...) }
func (h clientHost) nextToast() int            { return h.m.toast.next() }

func (h clientHost) watched() []string { return h.m.watched }

func (h clientHost) unwatchGraphics() {
	h.m.link.scr.send("screen.subscribe", protocol.ScreenSubscribeParams{PaneIDs: h.m.watched}, h.m.fail)
}

// paneInsides are the insides of the focused tab's panes drawn (the
// zoomed one alone), in window cells; none while an overlay covers them.
func (h clientHost) paneInsides() map[string]protocol.Rect {
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

func (h clientHost) focusWorkspace(id string) { h.m.focusWorkspace(id) }
func (h clientHost) statusIcon(s protocol.AgentStatus) (string, cellStyle) {
	return h.m.statusIcon(s)
}
func (h clientHost) confirmClose() bool             { return h.m.confirmClose }
func (h clientHost) send(method string, params any) { h.m.call(method, params) }

func (h clientHost) flushInput() { h.m.flushInput() }

// unfoldGroup shows a folded worktree group again (the session keeps it).
func (h clientHost) unfoldGroup(key string) {
	if h.m.side.collapsed[key] {
		h.m.side.toggleGroup(key)
	}
}

func (h clientHost) popupTerminal() string {
	if h.m.popup == nil {
		return ""
	}
	return h.m.popup.st.TerminalID
}

func (h clientHost) sendThen(method string, params any, done func(error)) {
	h.m.link.req.sendThen(method, params, done)
}

func (h clientHost) agentView() *protocol.AgentViewList               { return &h.m.view }
func (h clientHost) uiConfig() *config.UI                             { return &h.m.ui }
func (h clientHost) th() *theme                                       { return h.m.theme }
func (h clientHost) width() int                                       { return h.m.width }
func (h clientHost) height() int                                      { return h.m.height }
func (h clientHost) expanded() bool                                   { return h.m.sidebar }
func (h clientHost) gitMarks() map[string]protocol.WorkspaceGitStatus { return h.m.git.st }
func (h clientHost) fleet() *fleetView                                { return &h.m.fleet }
func (h clientHost) tabLabel(id string) string                        { return h.m.tabLabel(id) }
func (h clientHost) workspaceLabel(id string) string                  { return h.m.workspaceLabel(id) }
func (h clientHost) paneInfo(id string) (protocol.PaneInfo, bool)     { return h.m.paneInfo(id) }

func (h clientHost) keepWidth(w int) {
	h.m.sessionWidth = w
	h.m.setSessionWidth(w)
}

func (h clientHost) focusedTabs() []protocol.TabInfo { return h.m.focusedTabs() }
func (h clientHost) focusedLayout() (protocol.PaneLayoutSnapshot, bool) {
	return h.m.focusedLayout()
}

func (h clientHost) remoteTitle() (string, bool) {
	if h.m.fleet.selected == "" {
		return "", false
	}
	return h.m.remote.title(), true
}

func (h clientHost) copyView() *copyMode {
	if h.m.mode != modeCopy {
		return nil
	}
	return &h.m.copy
}

func (h clientHost) selection() *mouseSel { return h.m.msel.sel }
