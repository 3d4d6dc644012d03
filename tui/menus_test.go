package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeMenuHost is the client as the menus see it: a session, and a log
// of what the menus asked of it.
type fakeMenuHost struct {
	session
	ui     config.UI
	folded map[string]bool
	did    []string
}

func (h *fakeMenuHost) snapshot() *protocol.SessionSnapshot              { return &h.snap }
func (h *fakeMenuHost) screen(string) *paneScreen                        { return nil }
func (h *fakeMenuHost) gitMarks() map[string]protocol.WorkspaceGitStatus { return nil }
func (h *fakeMenuHost) uiConfig() *config.UI                             { return &h.ui }
func (h *fakeMenuHost) width() int                                       { return 80 }
func (h *fakeMenuHost) height() int                                      { return 24 }
func (h *fakeMenuHost) worktreeGroups() map[string]string                { return nil }
func (h *fakeMenuHost) groupFolded(key string) bool                      { return h.folded[key] }
func (h *fakeMenuHost) log(s string)                                     { h.did = append(h.did, s) }
func (h *fakeMenuHost) toggleGroup(key string)                           { h.log("fold " + key) }
func (h *fakeMenuHost) clearSelection()                                  { h.log("unselect") }
func (h *fakeMenuHost) send(method string, _ any)                        { h.log(method) }
func (h *fakeMenuHost) startRename(what, _, id, cur string) {
	h.log("rename " + what + " " + id + " " + cur)
}
func (h *fakeMenuHost) createThenName(method string, _ any) tea.Cmd {
	h.log("name after " + method)
	return nil
}
func (h *fakeMenuHost) startWorktree(id string) { h.log("worktree " + id) }
func (h *fakeMenuHost) askClose(req closeReq, panes []string) tea.Cmd {
	h.log("ask " + req.method + " " + strings.Join(panes, "+"))
	return nil
}
func (h *fakeMenuHost) askCloseTab(id string) tea.Cmd    { h.log("ask tab " + id); return nil }
func (h *fakeMenuHost) taskMenuItem(item string) tea.Cmd { h.log("task " + item); return nil }

// The menus on their own: a pane's items follow the pane, keys and the
// mouse move and choose, and each item is one request or question asked
// of the client (no model, no server, no terminal).
func TestMenus_OnItsOwn(t *testing.T) {
	h := &fakeMenuHost{session: session{snap: twoPanes()}}
	md := modeTerminal
	mn := &menus{h: h, mode: &md}
	if !mn.pressOpens(mouseMsg{Action: mousePress, Button: tea.MouseRight}) {
		t.Fatal("a right press in terminal mode should open a menu")
	}
	mn.openPane(mouseMsg{X: 10, Y: 3}, "w1:p1")
	if md != modeMenu || mn.open == nil || h.did[0] != "unselect" {
		t.Fatalf("open: mode %v menu %+v did %v", md, mn.open, h.did)
	}
	want := []string{itemRenamePane, itemSwap, itemSplitRight, itemSplitDown, itemZoom, itemClicksPane, itemClosePane}
	if got := strings.Join(mn.open.items, ","); got != strings.Join(want, ",") {
		t.Fatalf("pane items %q, want %q (another pane is focused: swap offered)", got, want)
	}
	if mn.pressOpens(mouseMsg{Action: mousePress, Button: tea.MouseRight}) {
		t.Error("no menu opens over an open menu")
	}
	mn.key(keyRunes("j"))
	mn.key(tea.KeyPressMsg{Code: tea.KeyEnter}) // swap
	if md != modeTerminal || mn.open != nil || strings.Join(h.did[1:], ",") != "pane.swap,pane.focus" {
		t.Fatalf("enter on swap: mode %v did %v", md, h.did)
	}

	// The mouse: motion selects, a left click on an item runs it, a left
	// click elsewhere closes the menu and its release is eaten.
	h.did = nil
	mn.openWorkspace(mouseMsg{X: 2, Y: 1}, "w2")
	x, y, _, _ := mn.open.rect(80, 24)
	mn.mouse(mouseMsg{X: x + 2, Y: y + 1, Action: mousePress, Button: tea.MouseLeft}) // Rename
	if strings.Join(h.did, ",") != "unselect,rename workspace w2 other" || mn.open != nil || !mn.eatRelease {
		t.Fatalf("click rename: did %v menu %+v eat %v", h.did, mn.open, mn.eatRelease)
	}
	mn.openWorkspace(mouseMsg{X: 2, Y: 1}, "w2")
	if _, done := mn.mouse(mouseMsg{X: 70, Y: 20, Action: mousePress, Button: tea.MouseRight}); done || mn.open != nil || mn.eatRelease {
		t.Fatalf("a right press elsewhere should close and let the press through: done %v menu %+v", done, mn.open)
	}

	// A tab's menu: a new tab named first when [ui] says so; close asks.
	h.did, h.ui.PromptNewTabName = nil, true
	mn.show(&menuState{kind: menuTab, id: "w1:t1", items: []string{itemNewTab, itemRename, itemClose}})
	mn.choose(0)
	mn.show(&menuState{kind: menuTab, id: "w1:t1", items: []string{itemNewTab, itemRename, itemClose}})
	mn.choose(2)
	mn.show(&menuState{kind: menuWorkspace, id: "w1", items: []string{itemClose}})
	mn.choose(0)
	mn.show(&menuState{kind: menuGlobal, items: []string{"task board"}})
	mn.choose(0)
	if got := strings.Join(h.did, ","); got != "unselect,name after tab.create,unselect,ask tab w1:t1,unselect,ask workspace.close w1:p1+w1:p2,unselect,task task board" {
		t.Fatalf("did %v", got)
	}
	mn.show(&menuState{kind: menuTab, id: "w1:t1", items: []string{itemNewTab}})
	if mn.choose(5) != nil || mn.open != nil || md != modeTerminal {
		t.Fatal("an item out of range closes the menu and does nothing")
	}
}
