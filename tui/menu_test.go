package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

func TestMenu_PassthroughModifier(t *testing.T) {
	for _, c := range []struct {
		in             string
		ctrl, alt, set bool
	}{
		{"", false, false, false}, {"off", false, false, false}, {"none", false, false, false},
		{"ctrl", true, false, true}, {"Control", true, false, true}, {"alt", false, true, true}, {"option", false, true, true},
		{"ctrl+alt", true, true, true}, {" alt + ctrl ", true, true, true},
		// Terminals report only shift, alt and ctrl with the mouse.
		{"cmd", false, false, false}, {"ctrl+super", false, false, false}, {"meta", false, false, false}, {"hyper", false, false, false},
	} {
		ctrl, alt, set := passthroughMods(c.in)
		if ctrl != c.ctrl || alt != c.alt || set != c.set {
			t.Errorf("%q: ctrl=%v alt=%v set=%v, want %v %v %v", c.in, ctrl, alt, set, c.ctrl, c.alt, c.set)
		}
	}
}

func rightPress(x, y int) mouseMsg {
	return mouseMsg{X: x, Y: y, Button: tea.MouseRight, Action: mousePress}
}

// queued is the input waiting for a pane.
func queued(m *model, id string) string {
	for _, in := range m.input.pending {
		if in.paneID == id {
			return string(in.b)
		}
	}
	return ""
}

// Herdr's rule for a right click on a pane's inside: the menu, unless the
// program asked for the mouse and either right_click is "pane" with no
// modifier, or exactly the passthrough modifiers are held (taken off on
// the way). The frame always opens the menu.
func TestMenu_RightClickGoesToMenuOrProgram(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	m.ui.RightClickPassthroughModifier = "ctrl"
	p2 := m.screens["w1:p2"]
	p2.modes.Mouse, p2.modes.MouseSGR = true, true
	// w1:p2 is window columns 54–83, rows 1–20; its inside starts at (55, 2).

	m.Update(rightPress(60, 5))
	if m.mode != modeMenu || m.menus.open == nil || m.menus.open.id != "w1:p2" || queued(m, "w1:p2") != "" {
		t.Fatalf("right_click herdr over a mouse program: mode %v menu %+v input %q", m.mode, m.menus.open, queued(m, "w1:p2"))
	}
	if !strings.Contains(strings.Join(m.menus.open.items, ","), itemClicksPane) {
		t.Errorf("items %q lack %q", m.menus.open.items, itemClicksPane)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if m.mode != modeTerminal || m.menus.open != nil {
		t.Fatalf("esc left mode %v menu %+v", m.mode, m.menus.open)
	}

	// ctrl held: the press, its drag and release go, without ctrl.
	ev := rightPress(60, 5)
	ev.Ctrl = true
	m.Update(ev)
	ev.Action = mouseMotion
	ev.X = 61
	m.Update(ev)
	ev.Action = mouseRelease
	m.Update(ev)
	if got, want := queued(m, "w1:p2"), "\x1b[<2;6;4M\x1b[<34;7;4M\x1b[<2;7;4m"; got != want || m.menus.open != nil || m.panes.pass != nil {
		t.Fatalf("ctrl+right: input %q, want %q; menu %+v pass %+v", got, want, m.menus.open, m.panes.pass)
	}
	m.input.pending = nil

	// alt is not the modifier: the menu.
	ev = rightPress(60, 5)
	ev.Alt = true
	m.Update(ev)
	if m.mode != modeMenu || queued(m, "w1:p2") != "" {
		t.Fatalf("alt+right: mode %v input %q", m.mode, queued(m, "w1:p2"))
	}
	m.menus.close()

	// right_click = pane: a plain click goes; the frame opens the menu.
	p2.modes.RightClickPane = true
	m.Update(rightPress(60, 5))
	if got := queued(m, "w1:p2"); got != "\x1b[<2;6;4M" || m.menus.open != nil {
		t.Fatalf("right_click pane: input %q menu %+v", got, m.menus.open)
	}
	m.Update(mouseMsg{X: 60, Y: 5, Button: tea.MouseRight, Action: mouseRelease})
	m.input.pending = nil
	m.Update(rightPress(54, 5)) // the left border
	if m.mode != modeMenu || queued(m, "w1:p2") != "" || !strings.Contains(strings.Join(m.menus.open.items, ","), itemClicksHerdr) {
		t.Fatalf("frame click: mode %v input %q menu %+v", m.mode, queued(m, "w1:p2"), m.menus.open)
	}
	m.menus.close()

	// A program that did not ask for the mouse never gets it.
	p2.modes.Mouse = false
	m.Update(rightPress(60, 5))
	if m.mode != modeMenu || queued(m, "w1:p2") != "" {
		t.Fatalf("no mouse program: mode %v input %q", m.mode, queued(m, "w1:p2"))
	}
}

// The menu stays inside the window near its edges, and keys choose: the
// third item of a pane that is not focused is "Split right" after rename
// and swap.
func TestMenu_PlacedInWindowAndKeysChoose(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.Update(rightPress(83, 20))
	x, y, w, h := m.menus.open.rect(m.width, m.height)
	if x+w > m.width || y+h > m.height || x < 0 || y < 0 {
		t.Fatalf("menu at %d,%d %dx%d leaves the %dx%d window", x, y, w, h, m.width, m.height)
	}
	view := render(m)
	if !strings.Contains(view, itemClosePane) {
		t.Fatalf("the menu is not drawn:\n%s", view)
	}
	m.menus.close()

	m.Update(rightPress(30, 5)) // w1:p1, not the focused pane
	if want := []string{itemRenamePane, itemSwap, itemSplitRight, itemSplitDown, itemZoom, itemClicksPane, itemClosePane}; strings.Join(m.menus.open.items, ",") != strings.Join(want, ",") {
		t.Fatalf("items %q, want %q", m.menus.open.items, want)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyUp}) // wraps to the last
	if m.menus.open.sel != len(m.menus.open.items)-1 {
		t.Fatalf("up from the first item: sel %d", m.menus.open.sel)
	}
	for range 4 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyDown}) // 0, 1, 2, 3: Split down
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.mode != modeTerminal || m.menus.open != nil {
		t.Fatalf("enter left mode %v", m.mode)
	}
	waitFor(t, "the split", func() bool { return len(f.requests("pane.split")) == 1 })
	var p protocol.PaneSplitParams
	if err := json.Unmarshal(f.requests("pane.split")[0].Params, &p); err != nil || p.Direction != "down" || p.TargetPaneID == nil || *p.TargetPaneID != "w1:p1" {
		t.Fatalf("split params %+v, %v", p, err)
	}
}

// Choosing with a click takes its release too: a program under the menu
// that asked for the mouse gets no release without its press.
func TestMenu_ClickReleaseStaysWithTheMenu(t *testing.T) {
	m, _ := testModel(t, &fakeServer{})
	p2 := m.screens["w1:p2"]
	p2.modes.Mouse, p2.modes.MouseSGR = true, true
	m.Update(rightPress(60, 5))
	m.Update(mouseMsg{X: 60, Y: 5, Button: tea.MouseRight, Action: mouseRelease})
	x, y, _, _ := m.menus.open.rect(m.width, m.height)
	m.Update(mouseMsg{X: x + 3, Y: y + 1, Button: tea.MouseLeft, Action: mousePress}) // Rename pane
	m.Update(mouseMsg{X: x + 3, Y: y + 1, Button: tea.MouseLeft, Action: mouseRelease})
	if m.mode != modeRename || m.rename.id != "w1:p2" {
		t.Fatalf("clicking Rename pane: mode %v rename %+v", m.mode, m.rename)
	}
	if got := queued(m, "w1:p2"); got != "" {
		t.Fatalf("the program under the menu got %q", got)
	}
	// A right click over a rename does not open a menu.
	m.Update(rightPress(60, 5))
	if m.mode != modeRename || m.menus.open != nil {
		t.Fatalf("a right click during a rename: mode %v menu %+v", m.mode, m.menus.open)
	}
}

// A workspace's menu follows Herdr's: rename and close; a repository adds
// a new worktree; a repository with worktrees closes or folds its group;
// a worktree's own has rename and close.
func TestMenu_WorkspaceMenus(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	items := func(id string) string {
		m.menus.openWorkspace(mouseMsg{X: 2, Y: 1}, id)
		defer m.menus.close()
		return strings.Join(m.menus.open.items, ",")
	}
	if got := items("w1"); got != "Rename,Close" {
		t.Errorf("a plain workspace: %q", got)
	}
	m.git.st = map[string]protocol.WorkspaceGitStatus{"w1": {Repo: true}}
	if got := items("w1"); got != "Rename,Close,New worktree" {
		t.Errorf("a repository: %q", got)
	}
	m.snap.Workspaces[0].Worktree = &protocol.WorkspaceWorktreeInfo{RepoKey: "r"}
	m.snap.Workspaces[1].Worktree = &protocol.WorkspaceWorktreeInfo{RepoKey: "r", IsLinkedWorktree: true}
	if got := items("w1"); got != "Rename,Close group,New worktree,Collapse" {
		t.Errorf("a repository with a worktree: %q", got)
	}
	if got := items(m.snap.Workspaces[1].WorkspaceID); got != "Rename,Close" {
		t.Errorf("a worktree: %q", got)
	}

	m.menus.openWorkspace(mouseMsg{X: 2, Y: 1}, "w1")
	m.menus.choose(3) // Collapse
	if !m.side.collapsed["r"] || items("w1") != "Rename,Close group,New worktree,Expand" {
		t.Errorf("collapse: collapsed %v", m.side.collapsed)
	}
	m.menus.openWorkspace(mouseMsg{X: 2, Y: 1}, "w1")
	m.menus.choose(2) // New worktree: its branch asked first
	if cmd := m.rename.key(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil {
		cmd()
	}
	waitFor(t, "worktree.create", func() bool { return len(f.requests("worktree.create")) == 1 })
	var p protocol.WorktreeCreateParams
	if err := json.Unmarshal(f.requests("worktree.create")[0].Params, &p); err != nil || p.WorkspaceID == nil || *p.WorkspaceID != "w1" || !p.Focus {
		t.Errorf("worktree.create params %+v, %v", p, err)
	}
}

// A menu on its own: it is moved in to fit the window, the cell under an
// item is that item and its border is none, the selection wraps around,
// and it draws its items with the selected one marked.
func TestMenuState_OnItsOwn(t *testing.T) {
	mn := &menuState{x: 70, y: 20, items: []string{"Split right", "Split down", "Zoom"}, title: " w1:p1 "}
	x, y, w, h := mn.rect(80, 24)
	if x+w > 80 || y+h > 24 || w != 15 || h != 5 {
		t.Fatalf("rect %d,%d %dx%d in 80x24", x, y, w, h)
	}
	if mn.itemAt(x+2, y+2, 80, 24) != 1 || mn.itemAt(x, y+2, 80, 24) != -1 || mn.itemAt(x+2, y, 80, 24) != -1 {
		t.Fatal("itemAt: the second row is not item 1, or a border is an item")
	}
	mn.move(-1)
	if mn.sel != 2 {
		t.Fatalf("up from the first: sel %d", mn.sel)
	}
	c := newCanvas(80, 24)
	th := newTheme(config.Default(), true)
	mn.draw(c, 80, 24, th)
	if row := ansi.Strip(strings.Split(c.String(), "\n")[y+3]); !strings.Contains(row, "Zoom") || c.cells[(y+3)*80+x+1].st != th.selected {
		t.Fatalf("row %q is not the selected Zoom", row)
	}
}
