package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Right-click menus, as Herdr has them: a pane's, a tab's (tab bar) and a
// workspace's (sidebar), drawn at the click over everything but a popup.
// Up/down or the mouse pick an item, enter or a click runs it, esc or a
// click elsewhere closes it; a right click elsewhere opens that menu
// instead. Every item is an API call this client already makes for a key.
//
// Whether a right click on a pane's inside opens the menu or goes to the
// program (Herdr's rule): it goes to the program when the program asked
// for the mouse and either no modifier is held and the pane's right_click
// is "pane" (its frames' modes say so), or exactly the modifiers of [ui]
// right_click_passthrough_modifier are held (they are not passed on).
// Otherwise, and always on the pane's frame, the menu opens.

// menuKind is what a menu is for.
type menuKind int

const (
	menuPane menuKind = iota
	menuTab
	menuWorkspace
	menuGlobal // a sidebar header's: the task dock and board (tasks.go)
)

// menuState is the open menu.
type menuState struct {
	kind menuKind
	id   string // the pane, tab or workspace
	// source is the focused pane when another one was clicked (its menu
	// offers to swap them).
	source string
	items  []string
	sel    int
	x, y   int    // the click, window cells
	title  string // in the top border: a pane's id
}

// Menu items; their labels are Herdr's.
const (
	itemRenamePane  = "Rename pane"
	itemClearName   = "Clear pane name"
	itemSwap        = "Swap with focused pane"
	itemSplitRight  = "Split right"
	itemSplitDown   = "Split down"
	itemZoom        = "Zoom"
	itemClicksPane  = "Send right-clicks to pane"
	itemClicksHerdr = "Use Herdr right-click menu"
	itemClosePane   = "Close pane"
	itemNewTab      = "New tab"
	itemRename      = "Rename"
	itemClose       = "Close"
	itemCloseGroup  = "Close group"
	itemNewWorktree = "New worktree"
	itemCollapse    = "Collapse"
	itemExpand      = "Expand"
)

// rightPass is a right-button gesture going to a program: its drags and
// release follow the press there, without the passthrough modifiers.
type rightPass struct {
	paneID    string
	ctrl, alt bool // modifiers taken off
}

// passthroughMods is [ui] right_click_passthrough_modifier as the mouse
// reports modifiers; ok is false when unset. A combo with cmd, super,
// meta or hyper never matches: terminals report only shift, alt and ctrl
// with a mouse event (so it is in Herdr too).
func passthroughMods(s string) (ctrl, alt, ok bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" || t == "off" || t == "none" || t == "disabled" {
		return false, false, false
	}
	for _, part := range strings.Split(t, "+") {
		switch strings.TrimSpace(part) {
		case "ctrl", "control":
			ctrl = true
		case "alt", "option":
			alt = true
		default:
			return false, false, false
		}
	}
	return ctrl, alt, true
}

// menus is the right-click menu as a component: the menu open, the keys
// and the mouse while it is, and what its items do, asked of the client
// through menuHost (a fake in tests).
type menus struct {
	open *menuState
	// eatRelease: the menu took a press, and the release is its too.
	eatRelease bool
	h          menuHost
	mode       *mode
}

// menuHost is what the menus read of the client and ask it to do.
type menuHost interface {
	paneInfo(id string) (protocol.PaneInfo, bool)
	focusedPaneID() string
	tabLabel(id string) string
	workspaceLabel(id string) string
	panesOf(tabID, workspaceID string) []string
	repoKey(id string) string
	snapshot() *protocol.SessionSnapshot
	screen(paneID string) *paneScreen
	gitMarks() map[string]protocol.WorkspaceGitStatus
	uiConfig() *config.UI
	width() int
	height() int
	// groupFolded says whether the worktree group of repository key is
	// folded in the sidebar, and which workspace heads it.
	worktreeGroups() map[string]string
	groupFolded(key string) bool
	toggleGroup(key string)
	// clearSelection drops a mouse selection (a menu opens over it).
	clearSelection()
	send(method string, params any)
	startRename(what, method, id, current string)
	createThenName(method string, params any) tea.Cmd
	startWorktree(workspaceID string)
	askClose(req closeReq, panes []string) tea.Cmd
	askCloseTab(id string) tea.Cmd
	taskMenuItem(item string) tea.Cmd
}

// openPane opens pane id's menu at the click.
func (mn *menus) openPane(ev mouseMsg, id string) {
	menu := &menuState{kind: menuPane, id: id, x: ev.X, y: ev.Y, items: []string{itemRenamePane}, title: " " + id + " "}
	if info, ok := mn.h.paneInfo(id); ok && info.Label != nil && *info.Label != "" {
		menu.items = append(menu.items, itemClearName)
	}
	if f := mn.h.focusedPaneID(); f != "" && f != id {
		menu.source = f
		menu.items = append(menu.items, itemSwap)
	}
	menu.items = append(menu.items, itemSplitRight, itemSplitDown, itemZoom)
	if s := mn.h.screen(id); s != nil && s.modes.RightClickPane {
		menu.items = append(menu.items, itemClicksHerdr)
	} else {
		menu.items = append(menu.items, itemClicksPane)
	}
	menu.items = append(menu.items, itemClosePane)
	mn.show(menu)
}

// openWorkspace opens workspace id's menu at the click: a git
// repository's offers a new worktree, a repository with worktrees under
// it closes or folds the group. (Herdr's "Open worktree..." and "Delete
// worktree checkout..." open dialogs this client does not have.)
func (mn *menus) openWorkspace(ev mouseMsg, id string) {
	menu := &menuState{kind: menuWorkspace, id: id, x: ev.X, y: ev.Y, items: []string{itemRename, itemClose}}
	for _, w := range mn.h.snapshot().Workspaces {
		if w.WorkspaceID != id {
			continue
		}
		wt := w.Worktree
		switch {
		case wt != nil && wt.IsLinkedWorktree:
		case wt != nil && mn.h.worktreeGroups()[wt.RepoKey] == id:
			fold := itemCollapse
			if mn.h.groupFolded(wt.RepoKey) {
				fold = itemExpand
			}
			menu.items = []string{itemRename, itemCloseGroup, itemNewWorktree, fold}
		case wt != nil || mn.h.gitMarks()[id].Repo:
			menu.items = append(menu.items, itemNewWorktree)
		}
	}
	mn.show(menu)
}

// show shows a menu; keys go to it until it closes.
func (mn *menus) show(menu *menuState) {
	mn.open, *mn.mode = menu, modeMenu
	mn.h.clearSelection()
}

func (mn *menus) close() {
	mn.open = nil
	if *mn.mode == modeMenu {
		*mn.mode = modeTerminal
	}
}

// rect is the menu's frame in a window winW×winH: as wide as its longest
// item and a margin (at least 14), placed at the click and moved in to
// fit the window.
func (mn *menuState) rect(winW, winH int) (x, y, w, h int) {
	for _, it := range mn.items {
		w = max(w, textWidth(it))
	}
	w = min(max(w+4, textWidth(mn.title)+4, 14), max(winW, 1))
	h = min(len(mn.items)+2, max(winH, 1))
	x = max(min(mn.x, winW-w), 0)
	y = max(min(mn.y, winH-h), 0)
	return x, y, w, h
}

// itemAt is the item at window cell (x, y), or -1.
func (mn *menuState) itemAt(x, y, winW, winH int) int {
	mx, my, w, h := mn.rect(winW, winH)
	if x <= mx || x >= mx+w-1 || y <= my || y >= my+h-1 {
		return -1
	}
	if i := y - my - 1; i < len(mn.items) {
		return i
	}
	return -1
}

func (mn *menuState) draw(c *canvas, winW, winH int, th *theme) {
	if mn == nil {
		return
	}
	x, y, w, h := mn.rect(winW, winH)
	th.listBox(c, x, y, w, h, mn.title, mn.items, mn.sel, h-2)
}

// move moves the selection by step, around the ends.
func (mn *menuState) move(step int) {
	mn.sel = (mn.sel + step + len(mn.items)) % len(mn.items)
}

func (mn *menus) key(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc", "ctrl+c", "q":
		mn.close()
	case "up", "k":
		mn.open.move(-1)
	case "down", "j":
		mn.open.move(1)
	case "enter":
		return mn.choose(mn.open.sel)
	}
	return nil
}

// mouse handles a mouse event while the menu is open; false lets it
// through (a right press elsewhere opens the menu there).
func (mn *menus) mouse(ev mouseMsg) (tea.Cmd, bool) {
	i := mn.open.itemAt(ev.X, ev.Y, mn.h.width(), mn.h.height())
	if ev.Action == mousePress && (ev.Button == tea.MouseLeft || ev.Button == tea.MouseMiddle || ev.Button == tea.MouseRight) {
		mn.eatRelease = true // a wheel notch has no release
	}
	switch {
	case ev.Action == mouseMotion:
		if i >= 0 {
			mn.open.sel = i
		}
	case ev.Action != mousePress:
	case ev.Button == tea.MouseLeft && i >= 0:
		return mn.choose(i), true
	case ev.Button == tea.MouseRight && i < 0:
		mn.close()
		mn.eatRelease = false // the press opens the menu there, or goes to a program
		return nil, false
	case ev.Button == tea.MouseLeft || ev.Button == tea.MouseRight || ev.Button == tea.MouseMiddle:
		mn.close()
	}
	return nil, true
}

// choose runs item i of the open menu, which closes.
func (mn *menus) choose(i int) tea.Cmd {
	menu := mn.open
	mn.close()
	if menu == nil || i < 0 || i >= len(menu.items) {
		return nil
	}
	id := menu.id
	switch menu.kind {
	case menuPane:
		return mn.paneItem(menu, menu.items[i])
	case menuTab:
		switch menu.items[i] {
		case itemNewTab:
			p := protocol.TabCreateParams{Focus: true}
			for _, t := range mn.h.snapshot().Tabs {
				if t.TabID == id {
					p.WorkspaceID = protocol.Ptr(t.WorkspaceID)
				}
			}
			if mn.h.uiConfig().PromptNewTabName {
				return mn.h.createThenName("tab.create", p)
			}
			mn.h.send("tab.create", p)
		case itemRename:
			mn.h.startRename("tab", "tab.rename", id, mn.h.tabLabel(id))
		case itemClose:
			return mn.h.askCloseTab(id)
		}
	case menuGlobal:
		return mn.h.taskMenuItem(menu.items[i])
	case menuWorkspace:
		switch menu.items[i] {
		case itemRename:
			mn.h.startRename("workspace", "workspace.rename", id, mn.h.workspaceLabel(id))
		case itemClose:
			return mn.h.askClose(closeReq{what: "workspace", method: "workspace.close", params: protocol.WorkspaceTarget{WorkspaceID: id}}, mn.h.panesOf("", id))
		case itemCloseGroup:
			var panes []string
			key := mn.h.repoKey(id)
			for _, w := range mn.h.snapshot().Workspaces {
				if w.Worktree != nil && w.Worktree.RepoKey == key {
					panes = append(panes, mn.h.panesOf("", w.WorkspaceID)...)
				}
			}
			return mn.h.askClose(closeReq{what: "workspace group", method: "workspace.close", params: protocol.WorkspaceCloseParams{WorkspaceID: id, CloseGroup: true}}, panes)
		case itemNewWorktree:
			mn.h.startWorktree(id)
		case itemCollapse, itemExpand:
			mn.h.toggleGroup(mn.h.repoKey(id)) // as a click on the group's chevron does
		}
	}
	return nil
}

func (mn *menus) paneItem(menu *menuState, item string) tea.Cmd {
	id := menu.id
	switch item {
	case itemRenamePane:
		label := ""
		if info, ok := mn.h.paneInfo(id); ok && info.Label != nil {
			label = *info.Label
		}
		mn.h.startRename("pane", "pane.rename", id, label)
	case itemClearName:
		mn.h.send("pane.rename", protocol.PaneRenameParams{PaneID: id})
	case itemSwap:
		src := menu.source
		mn.h.send("pane.swap", protocol.PaneSwapParams{SourcePaneID: &src, TargetPaneID: &id})
		mn.h.send("pane.focus", protocol.PaneTarget{PaneID: src})
	case itemSplitRight, itemSplitDown:
		d := "right"
		if item == itemSplitDown {
			d = "down"
		}
		mn.h.send("pane.split", protocol.PaneSplitParams{Direction: d, Focus: true, TargetPaneID: &id})
	case itemZoom:
		mn.h.send("pane.focus", protocol.PaneTarget{PaneID: id})
		mn.h.send("pane.zoom", protocol.PaneZoomParams{PaneID: &id, Mode: "toggle"})
	case itemClicksPane, itemClicksHerdr:
		to := "pane"
		if item == itemClicksHerdr {
			to = "herdr"
		}
		mn.h.send("pane.input.set", protocol.PaneInputSetParams{PaneID: id, RightClick: to})
	case itemClosePane:
		mn.h.send("pane.focus", protocol.PaneTarget{PaneID: id})
		return mn.h.askClose(closeReq{what: "pane", method: "pane.close", params: protocol.PaneTarget{PaneID: id}}, []string{id})
	}
	return nil
}

// pressOpens says a press opens a right-click menu: menus open from the
// terminal (or prefix) mode, not over a rename, copy mode or a question.
func (mn *menus) pressOpens(ev mouseMsg) bool {
	return ev.Action == mousePress && ev.Button == tea.MouseRight && (*mn.mode == modeTerminal || *mn.mode == modePrefix)
}
