package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// geometry is where things go in the window.
type geometry struct {
	sidebarW int           // columns of the sidebar including its border; 0 when hidden
	barY     int           // the tab bar's row; -1 when hidden ([ui] tab_bar_position, hide_tab_bar_when_single_tab)
	area     protocol.Rect // the pane area
	dock     protocol.Rect // the task dock (tasks.go); zero when hidden
	dockAt   dockPlace     // where the dock is drawn
	w, h     int           // the window
}

// railWidth is the width of the collapsed sidebar's compact rail, its
// border included.
const railWidth = 4

// geometry: the sidebar is ui.sidebar_width wide (its border included),
// a rail when collapsed in "compact" mode, and gone in windows at most
// ui.mobile_width_threshold wide.
func (m *model) geometry() geometry {
	sb := 0
	switch {
	case m.width <= m.ui.MobileWidthThreshold:
	case m.sidebar:
		sb = min(max(m.ui.SidebarWidth, m.ui.SidebarMinWidth, 8), m.ui.SidebarMaxWidth, m.width/2)
	case m.ui.SidebarCollapsedMode == "compact":
		sb = railWidth
	}
	g := geometry{sidebarW: sb, barY: 0, w: m.width, h: m.height, area: protocol.Rect{X: sb, Y: 1, Width: m.width - sb, Height: m.height - 1}}
	switch {
	case m.ui.HideTabBarWhenSingleTab && len(m.focusedTabs()) <= 1 && m.haveSnap:
		g.barY, g.area.Y, g.area.Height = -1, 0, m.height
	case m.ui.TabBarPosition == "bottom":
		g.barY, g.area.Y = m.height-1, 0
	}
	g.dock, g.area, g.dockAt = m.tasks.dockRect(g.area) // the task dock takes its share
	return g
}

// sideItem is one row of the sidebar.
type sideItem struct {
	y, x   int    // x: where an agent row's tokens start
	kind   string // "header", "workspace", "agent"
	id     string // workspace id or pane id
	text   string
	segs   []seg  // an agent's row of tokens (agents.go)
	toggle string // a worktree group's repo key: a click on its chevron folds it
	status protocol.AgentStatus
	on     bool // focused
	dim    bool // a machine that is not online: last known, takes no input
}

// sidebarItems are the expanded sidebar's rows: the spaces section's
// header and the spaces that fit below it from the scroll, then the agents
// header where the section split puts it, and the agents.
func (sb *sidebar) sidebarItems() []sideItem {
	items := []sideItem{{y: 0, kind: "header", text: "spaces"}}
	spaces := spacesRows(sb.h.height(), sb.sectionSplit())
	body := spacesBody(spaces)
	entries := sb.spaceEntries()
	first := spaceFirst(entries, sb.scroll, body)
	y := 1
	for _, e := range entries[first : first+spacesShown(entries, first, body)] {
		for _, it := range e.rows[:min(len(e.rows), body)] {
			it.y += y
			items = append(items, it)
		}
		y += len(e.rows) + e.gap
	}
	y = spaces
	header := "agents"
	if sb.h.agentView().Active && sb.h.agentView().Label != nil && *sb.h.agentView().Label != "" {
		header += " · " + *sb.h.agentView().Label // the view a plugin or script set
	} else if !sb.h.agentView().Sorted && sb.h.uiConfig().AgentPanelSort == "priority" {
		header += " · priority"
	}
	items = append(items, sideItem{y: y, kind: "header", text: header})
	y++
	multiTab := map[string]bool{}
	for _, w := range sb.h.snapshot().Workspaces {
		multiTab[w.WorkspaceID] = w.TabCount > 1
	}
	gap := sb.h.uiConfig().Sidebar.Agents.RowGap
	for i, a := range sb.panelAgents() {
		if i > 0 {
			y += gap
		}
		for i, row := range sb.agentRows(a, multiTab[a.WorkspaceID]) {
			x := 1
			if i > 0 {
				x = 3 // an entry's later rows sit under the text after its icon
			}
			items = append(items, sideItem{y: y, x: x, kind: "agent", id: a.PaneID, segs: row, status: a.AgentStatus, on: a.Focused})
			y++
		}
	}
	return items
}

// spaceEntries are the spaces of the list in the order drawn (spaceOrder):
// worktrees under their repository's workspace, a folded group's left out.
func (sb *sidebar) spaceEntries() []spaceEntry {
	var entries []spaceEntry
	for _, r := range sb.spaceOrder() {
		w, toggle, indent := r.w, r.toggle, 1
		if r.indented {
			indent = 3 // a worktree, under its repository's workspace
		}
		if toggle != "" && sb.collapsed[toggle] {
			w.AgentStatus = sb.groupStatus(toggle) // the folded worktrees' roll-up
		}
		e := spaceEntry{id: w.WorkspaceID, gap: sb.h.uiConfig().Sidebar.Spaces.RowGap}
		for i, row := range sb.spaceRows(w, r.indented) {
			x := indent
			if i > 0 {
				x += 2
			}
			it := sideItem{y: i, x: x, kind: "workspace", id: w.WorkspaceID, segs: row, status: w.AgentStatus, on: w.Focused && sb.h.fleet().selected == ""}
			if i == 0 && toggle != "" && len(row) > 1 {
				chevron := "▾ "
				if sb.collapsed[toggle] {
					chevron = "▸ "
				}
				row[1].text = chevron + row[1].text
				it.toggle = toggle
			}
			e.rows = append(e.rows, it)
		}
		entries = append(entries, e)
	}
	return append(entries, sb.machineEntries()...)
}

// tabItem is one tab in the tab bar, covering columns [x0, x1).
type tabItem struct {
	x0, x1 int
	id     string
	text   string
	status protocol.AgentStatus
	on     bool
}

// tabBar is the tab bar as a component: the focused workspace's tabs,
// where each is for a click, and the bar drawn with what the root says at
// its right end. It reads the session through h.
type tabBar struct{ h tabBarHost }

// tabBarHost is what the tab bar needs of the client around it.
type tabBarHost interface {
	snapshot() *protocol.SessionSnapshot
	th() *theme
	width() int
	workspaceLabel(id string) string
	// focusedTabs are the focused workspace's tabs, in order.
	focusedTabs() []protocol.TabInfo
	focusedLayout() (protocol.PaneLayoutSnapshot, bool)
	// remoteTitle names the machine's workspace shown; remote is false
	// while a local one is.
	remoteTitle() (title string, remote bool)
	// send makes a request whose answer only matters when it fails.
	send(method string, params any)
	// openTabMenu opens a tab's right-click menu at the click.
	openTabMenu(ev mouseMsg, id string)
}

// mouse: a left press focuses a tab; a right one opens its menu when menu
// says the keys' mode allows one.
func (b tabBar) mouse(ev mouseMsg, g geometry, menu bool) {
	if ev.Action != mousePress {
		return
	}
	for _, t := range b.items(g) {
		if ev.X < t.x0 || ev.X >= t.x1 {
			continue
		}
		switch {
		case ev.Button == tea.MouseLeft:
			b.h.send("tab.focus", protocol.TabTarget{TabID: t.id})
		case menu:
			b.h.openTabMenu(ev, t.id)
		}
	}
}

// items are the tabs as the bar lays them out.
func (b tabBar) items(g geometry) []tabItem {
	x := g.area.X
	if snap := b.h.snapshot(); g.sidebarW == 0 && snap.FocusedWorkspaceID != nil {
		x += textWidth(b.h.workspaceLabel(*snap.FocusedWorkspaceID)) + 3
	}
	var out []tabItem
	for _, t := range b.h.focusedTabs() {
		text := " " + strconv.Itoa(t.Number) + ":" + t.Label + " "
		if t.AgentStatus != protocol.StatusUnknown && t.AgentStatus != "" {
			icon, _ := b.h.th().statusIcon(t.AgentStatus)
			text += icon + " "
		}
		w := textWidth(text)
		out = append(out, tabItem{x0: x, x1: x + w, id: t.TabID, text: text, status: t.AgentStatus, on: t.Focused})
		x += w + 1
	}
	return out
}

// View implements tea.Model. It is empty: the program runs without
// Bubble Tea's renderer, and draw writes the frames.
func (m *model) View() tea.View {
	return tea.View{}
}

// canvas draws the whole frame, into reuse when it has the right size.
func (m *model) canvas(reuse *canvas) *canvas {
	c := reuse.reset(m.width, m.height)
	g := m.geometry()
	if !m.haveSnap {
		c.text(1, 0, "herdr: connecting…", m.width-1, m.theme.dim)
		return c
	}
	m.side.drawSidebar(c, g)
	m.drawTabBar(c, g)
	if m.fleet.selected != "" {
		m.remote.draw(c, g, m.theme)
	} else {
		m.panes.draw(c, g)
	}
	m.tasks.drawDock(c, g, m.theme)
	if m.tasks.board {
		m.tasks.drawBoard(c, g, m.theme)
	}
	m.drawCursor(c)
	switch m.mode {
	case modeHelp:
		drawHelp(c, m.width, m.height, m.theme)
	case modePicker:
		m.picker.draw(c, m.width, m.height, m.theme)
	case modeSettings:
		m.settings.draw(c, m.width, m.height, m.theme)
	case modeMenu:
		m.menus.open.draw(c, m.width, m.height, m.theme)
	case modeDiff:
		m.diff.draw(c, g.area, m.theme)
	case modeInbox:
		m.inbox.draw(c, g.area, m.theme)
	case modeChooser:
		m.tmux.drawChooser(c)
	case modePrompt:
		m.tmux.drawPrompt(c)
	}
	if m.tasks.modal != nil {
		m.tasks.drawModal(c, g, m.theme)
	}
	if m.popup != nil {
		m.popup.draw(c, g.area, m.theme)
	}
	m.notes.drawCorner(c, m.width, m.height, m.theme)
	m.diags.draw(c, m.width, m.theme)
	return c
}

// hostCursor is the outer terminal's own cursor: at the focused pane's
// cursor, unless [ui] host_cursor = "drawn", where the client draws it as
// an inverse cell instead (for terminals whose cursor lags or blinks).
func (m *model) hostCursor() hostCursor {
	if m.ui.HostCursor == "drawn" {
		return hostCursor{}
	}
	return m.paneCursor()
}

// drawCursor draws the drawn cursor.
func (m *model) drawCursor(c *canvas) {
	if m.ui.HostCursor != "drawn" {
		return
	}
	if hc := m.paneCursor(); hc.visible {
		c.restyle(hc.x, hc.y, func(st cellStyle) cellStyle {
			st.attrs ^= protocol.ScreenInverse
			return st
		})
	}
}

// paneCursor is where the focused pane's cursor is on screen: while keys
// go to that pane and it shows one.
func (m *model) paneCursor() hostCursor {
	if m.popup != nil {
		return m.popup.cursor(m.geometry().area, m.mode == modeTerminal)
	}
	if m.fleet.selected != "" {
		return m.remote.cursor(m.geometry(), m.mode == modeTerminal) // the local panes are not drawn
	}
	l, ok := m.focusedLayout()
	if !ok || m.mode != modeTerminal && m.mode != modeCopy {
		return hostCursor{}
	}
	s := m.screens[l.FocusedPaneID]
	if s == nil {
		return hostCursor{}
	}
	cur := s.cursor
	if m.mode == modeCopy {
		// In copy mode the cursor is copy mode's, steady block.
		if m.copy.paneID != l.FocusedPaneID {
			return hostCursor{}
		}
		x, y := m.copy.viewCursor()
		cur = protocol.ScreenCursor{X: x, Y: y, Visible: true}
	} else if !cur.Visible || s.offset > 0 {
		return hostCursor{}
	}
	s = &paneScreen{cursor: cur}
	g := m.geometry()
	for _, p := range l.Panes {
		if p.PaneID != l.FocusedPaneID {
			continue
		}
		r := p.Rect
		if l.Zoomed {
			r = l.Area
		}
		x, y := g.area.X+r.X+1+s.cursor.X, g.area.Y+r.Y+1+s.cursor.Y
		if s.cursor.X < 0 || s.cursor.Y < 0 || s.cursor.X >= r.Width-2 || s.cursor.Y >= r.Height-2 || x >= m.width || y >= m.height {
			return hostCursor{}
		}
		return hostCursor{x: x, y: y, visible: true, shape: cur.Shape}
	}
	return hostCursor{}
}

func (sb *sidebar) drawSidebar(c *canvas, g geometry) {
	if g.sidebarW == 0 {
		return
	}
	w := g.sidebarW - 1
	if bg := sb.h.th().p.sidebarBg; bg != 0 {
		c.fill(0, 0, w, sb.h.height(), " ", cellStyle{bg: bg})
	}
	for y := 0; y < sb.h.height(); y++ {
		c.set(w, y, "│", 1, sb.h.th().border)
	}
	if !sb.h.expanded() {
		sb.drawRail(c, w)
		return
	}
	base := cellStyle{bg: sb.h.th().p.sidebarBg}
	for _, it := range sb.sidebarItems() {
		if it.y >= sb.h.height() {
			break
		}
		switch it.kind {
		case "header":
			st := sb.h.th().header
			st.bg = base.bg
			c.text(1, it.y, it.text, w-1, st)
		case "agent", "workspace", "machine", "remote-workspace", "remote-agent":
			st := base
			if it.on && (it.kind == "workspace" || it.kind == "remote-workspace") {
				st = sb.h.th().selected
				c.fill(0, it.y, w, 1, " ", st)
			} else if it.on { // the agent in the focused pane
				st = cellStyle{bg: sb.h.th().p.surfaceDim}
				c.fill(0, it.y, w, 1, " ", st)
			}
			if it.dim {
				st.fg = sb.h.th().dim.fg // separators too: the whole row is last known
			}
			drawSegs(c, it.x, it.y, w-it.x, it.segs, st)
		default:
			st := base
			if it.on {
				st = sb.h.th().selected
				c.fill(0, it.y, w, 1, " ", st)
			}
			icon, ist := sb.h.th().statusIcon(it.status)
			ist.bg = st.bg
			c.text(1, it.y, icon, 1, ist)
			c.text(3, it.y, it.text, w-3, st)
		}
	}
	sb.drawSpacesScrollbar(c, w-1)
}

// railItems are the collapsed sidebar's compact rail: one icon per
// workspace, then one per agent of the panel.
func (sb *sidebar) railItems() []sideItem {
	var items []sideItem
	y := 0
	for _, ws := range sb.h.snapshot().Workspaces {
		items = append(items, sideItem{y: y, kind: "workspace", id: ws.WorkspaceID, status: ws.AgentStatus, on: ws.Focused && sb.h.fleet().selected == ""})
		y++
	}
	for _, it := range sb.h.fleet().rail() {
		it.y = y
		items = append(items, it)
		y++
	}
	y++
	for _, a := range sb.panelAgents() {
		items = append(items, sideItem{y: y, kind: "agent", id: a.PaneID, status: a.AgentStatus, on: a.Focused})
		y++
	}
	return items
}

// sideItems are the items of the sidebar as drawn: the full list or the rail.
func (sb *sidebar) sideItems() []sideItem {
	if !sb.h.expanded() {
		return sb.railItems()
	}
	return sb.sidebarItems()
}

func (sb *sidebar) drawRail(c *canvas, w int) {
	for _, it := range sb.railItems() {
		if it.y >= sb.h.height() {
			return
		}
		st := cellStyle{}
		if it.on && (it.kind == "workspace" || it.kind == "remote-workspace") {
			st = sb.h.th().selected
			c.fill(0, it.y, w, 1, " ", st)
		}
		icon, ist := sb.h.th().statusIcon(it.status)
		ist.bg = st.bg
		if it.dim {
			ist.fg = sb.h.th().dim.fg
		}
		c.text(1, it.y, icon, 1, ist)
	}
}

// drawTabBar draws the tab bar with the root's status at its right end;
// a bar hidden over a single tab comes back while that says something.
func (m *model) drawTabBar(c *canvas, g geometry) {
	right, st := m.barStatus()
	m.tabs.draw(c, g, m.mode == modeTerminal && m.toast.text == "", right, st)
}

// draw draws the bar, right at its right end in style rst; quiet: there
// is nothing to say, so a hidden bar stays hidden.
func (b tabBar) draw(c *canvas, g geometry, quiet bool, right string, rst cellStyle) {
	th, width := b.h.th(), b.h.width()
	y := g.barY
	if y < 0 {
		// Hidden: the bar comes back over the panes' first row only
		// while it has something to say (a mode, a message).
		if quiet {
			return
		}
		y = 0
	}
	c.fill(g.area.X, y, g.area.Width, 1, " ", th.bar)
	if snap := b.h.snapshot(); g.sidebarW == 0 && snap.FocusedWorkspaceID != nil {
		c.text(g.area.X+1, y, b.h.workspaceLabel(*snap.FocusedWorkspaceID), g.area.Width-1, th.barLabel)
	}
	if title, remote := b.h.remoteTitle(); remote { // a machine's workspace (remote.go): no local tabs
		c.text(g.area.X, y, " "+title+" ", width-g.area.X, th.tabOn)
	} else {
		b.drawTabs(c, g, y)
	}
	if right != "" {
		w := min(textWidth(right), g.area.Width)
		c.fill(width-w, y, w, 1, " ", rst)
		c.text(width-w, y, right, w, rst)
	}
}

// drawTabs draws the focused workspace's tabs on row y, then what is
// odd about the tab's size: zoomed, or another client's.
func (b tabBar) drawTabs(c *canvas, g geometry, y int) {
	th, width := b.h.th(), b.h.width()
	end := g.area.X
	for _, t := range b.items(g) {
		st := th.tab
		if t.on {
			st = th.tabOn
		}
		c.text(t.x0, y, t.text, width-t.x0, st)
		end = t.x1
	}
	l, ok := b.h.focusedLayout()
	if !ok {
		return
	}
	if l.Zoomed {
		end += 1 + c.text(end+1, y, " ZOOM ", width-end-1, th.mode)
	}
	// Another client owns the size: say so, and what it is (typing here
	// takes it back).
	if l.Area.Width > 0 && (l.Area.Width != g.area.Width || l.Area.Height != g.area.Height) {
		c.text(end+1, y, " SIZE "+strconv.Itoa(l.Area.Width)+"×"+strconv.Itoa(l.Area.Height)+" (another client) ", width-end-1, th.toast)
	}
}

// modeHints are the tab bar's words for the modes that say only their name
// and keys.
var modeHints = map[mode]string{
	modePrefix:       " PREFIX ",
	modeResize:       " RESIZE h/j/k/l · esc ",
	modeHelp:         " HELP ",
	modePicker:       " WORKSPACES j/k · enter · esc ",
	modeSettings:     " SETTINGS ↑↓/jk select · ←→/enter/space change · esc/q close ",
	modeNavigate:     " NAVIGATE ↑↓ workspace · hjkl pane · tab · esc ",
	modeMenu:         " MENU ↑↓ · enter · esc ",
	modeDiff:         " REVIEW n/p hunk · ]/[ file · c comment · s send · M merge · A accept · q ",
	modeInbox:        " INBOX j/k · 1-9/y/n answer · t text · enter focus · r · q ",
	modeTaskDock:     " TASKS j/k · enter activity · esc ",
	modeTaskBoard:    " TASK BOARD ",
	modeTaskActivity: " ACTIVITY ",
	modeChooser:      " SESSIONS ↑↓ · enter switch · esc ",
	modePrompt:       " COMMAND ",
}

// barStatus is the tab bar's right end: the mode, a toast, or the hint.
func (m *model) barStatus() (string, cellStyle) {
	if h, ok := modeHints[m.mode]; ok {
		return h, m.theme.mode
	}
	switch m.mode {
	case modeRename:
		return m.rename.status(), m.theme.mode
	case modeConfirm:
		return m.confirm.text(), m.theme.mode
	case modeCopy:
		return m.copy.copyStatus(m.toast.text), m.theme.mode
	}
	if m.toast.text != "" {
		return " " + m.toast.text + " ", m.theme.toast
	}
	// The one hint a new user needs: how to see the keys.
	return " " + m.keys.prefixName() + " ? keys ", m.theme.dim
}

// paneView draws the focused tab's panes as a component: their frames
// with titles, marks and scrollbars, their screens, copy mode's view and
// the mouse selection over them, and the mouse over them (panemouse.go),
// with a drag of a split's border in progress. It reads and acts through h.
type paneView struct {
	drag *dragState // a split's border being dragged
	pass *rightPass // a right-button gesture going to a program
	h    paneViewHost
}

// paneViewHost is what the pane view needs of the client around it.
type paneViewHost interface {
	focusedLayout() (protocol.PaneLayoutSnapshot, bool)
	screen(paneID string) *paneScreen
	paneInfo(id string) (protocol.PaneInfo, bool)
	uiConfig() *config.UI
	th() *theme
	width() int
	height() int
	// copyView is copy mode while it is on (nil: off).
	copyView() *copyMode
	// selection is the mouse selection (nil: none).
	selection() *mouseSel

	// send makes a request whose answer only matters when it fails.
	send(method string, params any)
	// clickLink activates the link at a cell of a pane's view (link.go).
	clickLink(paneID string, col, row int) tea.Cmd
	// sendInput queues bytes for a pane's program.
	sendInput(paneID string, b []byte)
	// selectPress starts a mouse selection at a pane's cell.
	selectPress(paneID string, x, y int)
	// openPaneMenu opens a pane's right-click menu at the click.
	openPaneMenu(ev mouseMsg, id string)
}

// draw draws the panes in the pane area.
func (pv *paneView) draw(c *canvas, g geometry) {
	th := pv.h.th()
	l, ok := pv.h.focusedLayout()
	if !ok {
		c.text(g.area.X+2, g.area.Y+1, "no workspace: press the prefix, then shift+n", g.area.Width-2, th.dim)
		return
	}
	for _, p := range l.Panes {
		if l.Zoomed && p.PaneID != l.FocusedPaneID {
			continue
		}
		r := p.Rect
		if l.Zoomed {
			r = l.Area
		}
		x, y := g.area.X+r.X, g.area.Y+r.Y
		w, h := min(r.Width, pv.h.width()-x), min(r.Height, pv.h.height()-y)
		focused := p.PaneID == l.FocusedPaneID
		pv.drawBox(c, x, y, w, h, p.PaneID, focused)
		if cm := pv.h.copyView(); cm != nil && p.PaneID == cm.paneID && w > 2 && h > 2 {
			cm.drawCopy(c, x+1, y+1, w-2, h-2, th)
		} else if s := pv.h.screen(p.PaneID); s != nil && w > 2 && h > 2 {
			s.drawInto(c, x+1, y+1, w-2, h-2)
			if sel := pv.h.selection(); sel != nil && sel.paneID == p.PaneID {
				for cy := 0; cy < h-2; cy++ {
					for cx := 0; cx < w-2; cx++ {
						if sel.selected(cx, cy) {
							c.restyle(x+1+cx, y+1+cy, func(cellStyle) cellStyle { return th.selection })
						}
					}
				}
			}
		}
	}
}

// title is the label in a pane's top border: the pane's id (what a
// script addresses it by, not its place in the tab), then its name.
func (pv *paneView) title(id string) (string, protocol.AgentStatus) {
	p, _ := pv.h.paneInfo(id)
	title := ""
	// Herdr's rule: a border shows the pane's own label, and the agent's
	// name only with [ui] show_agent_labels_on_pane_borders.
	switch {
	case p.Label != nil && *p.Label != "":
		title = *p.Label
	case !pv.h.uiConfig().ShowAgentLabelsOnPaneBorders:
	case p.DisplayAgent != nil && *p.DisplayAgent != "":
		title = *p.DisplayAgent
	case p.Agent != nil && *p.Agent != "":
		title = *p.Agent
	}
	text := id
	if title != "" {
		text += " " + title
	}
	return text, p.AgentStatus
}

func (pv *paneView) drawBox(c *canvas, x, y, w, h int, id string, focused bool) {
	th := pv.h.th()
	if w < 2 || h < 2 {
		return
	}
	st := th.border
	if focused {
		st = th.focus
	}
	c.set(x, y, "╭", 1, st)
	c.set(x+w-1, y, "╮", 1, st)
	c.set(x, y+h-1, "╰", 1, st)
	c.set(x+w-1, y+h-1, "╯", 1, st)
	for i := x + 1; i < x+w-1; i++ {
		c.set(i, y, "─", 1, st)
		c.set(i, y+h-1, "─", 1, st)
	}
	for j := y + 1; j < y+h-1; j++ {
		c.set(x, j, "│", 1, st)
		c.set(x+w-1, j, "│", 1, st)
	}
	title, status := pv.title(id)
	if w < 6 {
		return
	}
	col := x + 1
	if status != protocol.StatusUnknown && status != "" {
		icon, ist := th.statusIcon(status)
		c.text(col, y, " ", 1, st)
		c.text(col+1, y, icon, 1, ist)
		col += 2
	}
	end := x + w - 1
	if s := pv.h.screen(id); s != nil && s.offset > 0 {
		// Scrolled back through history: a marker at the right.
		mark := "[+" + strconv.Itoa(s.offset) + "]"
		if mx := end - len(mark) - 1; mx > col {
			c.text(mx, y, mark, len(mark), st)
			end = mx - 1
		}
	}
	col += c.text(col, y, " "+title+" ", end-col, st)
	pv.drawScrollbar(c, x+w-1, y+1, h-2, id)
}

// drawScrollbar draws a pane's scrollbar thumb on its right border when
// it has history ([ui] pane_scrollbars): its length is the screen's share
// of screen and history, its place the view's.
func (pv *paneView) drawScrollbar(c *canvas, x, y, h int, id string) {
	th := pv.h.th()
	p, ok := pv.h.paneInfo(id)
	if !pv.h.uiConfig().PaneScrollbars || !ok || h < 2 {
		return
	}
	var maxOff, rows, off int
	if p.Scroll != nil {
		maxOff, rows, off = int(p.Scroll.MaxOffsetFromBottom), int(p.Scroll.ViewportRows), int(p.Scroll.OffsetFromBottom)
	}
	if s := pv.h.screen(id); s != nil {
		// Frames are newer than the snapshot: the history gained while
		// attached shows at once (a server before frames said so: 0).
		off, rows = s.offset, max(rows, s.rows)
		maxOff = max(maxOff, s.history)
		if s.modes.AltScreen {
			maxOff = 0
		}
	}
	if maxOff == 0 {
		return
	}
	off = min(off, maxOff)
	total := maxOff + max(rows, 1)
	thumb := min(max((max(rows, 1)*h+total/2)/total, 1), h)
	top := (h - thumb) * (maxOff - off) / maxOff
	for i := 0; i < thumb; i++ {
		c.set(x, y+top+i, "┃", 1, th.dim)
	}
}

// helpLines list the bindings (the default keys).
var helpLines = []string{
	"prefix: ctrl+b, then",
	"v / -        split right / down",
	"h j k l      focus left/down/up/right",
	"H J K L      swap with a neighbour",
	"z            zoom       x  close pane",
	"c            new tab    n / p  next / previous",
	"1-9          go to tab  X  close tab",
	"N            new workspace  D  close it",
	"W / T / P    rename workspace / tab / pane",
	"r            resize mode (h/j/k/l, esc)",
	"w            workspace picker",
	"g            navigate: ↑↓ workspace, hjkl pane",
	"( / )        previous / next workspace",
	"o            go to the agent needing attention",
	"[            copy mode (/ search, v select, y copy)",
	"e            edit the scrollback in $EDITOR",
	"b            toggle sidebar",
	"t / B        task dock (hidden, right, bottom) / task board",
	"s            settings (saved to config.toml)",
	"R            reload config.toml",
	"tab          next pane  shift+tab  previous pane",
	"i            the pane's id (for scripts) and folder",
	"G            new worktree (asks its branch)",
	"S : Space    sessions · herdr command · next layout",
	"q            detach (everything keeps running)",
	"ctrl+b       send ctrl+b to the pane",
}

// drawHelp draws the keys' help in the middle of a window width×height.
func drawHelp(c *canvas, width, height int, th *theme) {
	w := 0
	for _, l := range helpLines {
		w = max(w, textWidth(l))
	}
	w += 4
	h := len(helpLines) + 2
	x, y := max((width-w)/2, 0), max((height-h)/2, 0)
	c.fill(x, y, w, h, " ", cellStyle{})
	th.box(c, x, y, w, h, " keys ")
	for i, l := range helpLines {
		c.text(x+2, y+1+i, l, w-4, cellStyle{})
	}
}

// listBox draws a box over what is under it with lines inside, at most
// rows of them, line sel highlighted (-1: none): the workspace picker,
// the settings screen, the right-click menus and the task activity.
func (th *theme) listBox(c *canvas, x, y, w, h int, title string, lines []string, sel, rows int) {
	c.fill(x, y, w, h, " ", cellStyle{})
	th.box(c, x, y, w, h, title)
	for i, l := range lines[:min(len(lines), max(rows, 0))] {
		st := cellStyle{}
		if i == sel {
			st = th.selected
			c.fill(x+1, y+1+i, w-2, 1, " ", st)
		}
		c.text(x+2, y+1+i, l, w-4, st)
	}
}

// box draws a rounded frame with a title in the focus colour.
func (th *theme) box(c *canvas, x, y, w, h int, title string) {
	st := th.focus
	c.set(x, y, "╭", 1, st)
	c.set(x+w-1, y, "╮", 1, st)
	c.set(x, y+h-1, "╰", 1, st)
	c.set(x+w-1, y+h-1, "╯", 1, st)
	c.text(x+1, y, strings.Repeat("─", w-2), w-2, st)
	c.text(x+1, y+h-1, strings.Repeat("─", w-2), w-2, st)
	for j := y + 1; j < y+h-1; j++ {
		c.set(x, j, "│", 1, st)
		c.set(x+w-1, j, "│", 1, st)
	}
	c.text(x+2, y, title, w-4, st)
}
