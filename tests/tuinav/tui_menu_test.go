//go:build unix

package tuinav

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Right-click menus (issue 17). The single pane of a fresh client fills
// the tab area: its frame starts at column tuiSidebar, row 1.

const rightButton = 2

// rightClick presses and releases the right button at window cell (x, y).
func rightClick(c *TUI, x, y int) {
	c.Type(SgrMouse(rightButton, x, y, false) + SgrMouse(rightButton, x, y, true))
}

// frameMenuOffers opens the menu of the pane's frame until it offers
// item: the client learns a new right_click from the pane's next frame,
// which may come after a menu opened with the old one.
func frameMenuOffers(t *testing.T, c *TUI, item string) {
	t.Helper()
	WaitFor(t, "the frame's menu to offer "+item, func() bool {
		rightClick(c, TuiSidebar, 8)
		screen := c.WaitText(t, "Close pane")
		c.Type("\x1b")
		c.WaitScreen(t, "the menu to close", func(sc string) bool { return !strings.Contains(sc, "Close pane") })
		return strings.Contains(screen, item)
	})
}

// A right click on a pane opens its menu at the mouse; esc closes it,
// a click outside too; choosing "Split right" splits that pane. The tab
// bar's menu makes and names a tab with the keyboard, the sidebar's
// offers rename and close.
func TestTUI_RightClickMenu_SplitsPaneAndClosesOnEsc(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\nprompt_new_tab_name = true\n") // the tab menu's New tab asks for the name
	s := h.Start(t, "menu")
	c := Attach(t, h, "menu", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "ready")

	rightClick(c, 60, 10)
	screen := c.WaitText(t, "Split right")
	for _, item := range []string{"Rename pane", "Split down", "Zoom", "Send right-clicks to pane", "Close pane"} {
		if !strings.Contains(screen, item) {
			t.Errorf("the pane menu lacks %q:\n%s", item, screen)
		}
	}
	if x, y, _ := FindText(screen, "Rename pane"); x != 62 || y != 11 {
		t.Errorf("menu's first item at (%d, %d), want (62, 11): the menu opens at the click", x, y)
	}
	c.Type("\x1b")
	c.WaitScreen(t, "esc to close the menu", func(sc string) bool { return !strings.Contains(sc, "Split right") })

	// A left click outside closes it and does nothing else.
	rightClick(c, 60, 10)
	c.WaitText(t, "Split right")
	c.Type(SgrMouse(0, 30, 30, false) + SgrMouse(0, 30, 30, true))
	c.WaitScreen(t, "a click outside to close the menu", func(sc string) bool { return !strings.Contains(sc, "Split right") })

	// On the frame too (the left border); click "Split right".
	rightClick(c, TuiSidebar, 8)
	screen = c.WaitText(t, "Split right")
	x, y, _ := FindText(screen, "Split right")
	c.Type(SgrMouse(0, x+1, y, false) + SgrMouse(0, x+1, y, true))
	WaitFor(t, "the split to make a second pane", func() bool {
		return len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes) == 2
	})
	c.WaitScreen(t, "two panes and no menu", func(sc string) bool {
		return FramedPanes(sc) == 2 && !strings.Contains(sc, "Split down")
	})

	// The tab bar: "New tab" is the first item; enter takes it and asks
	// for the name (prompt_new_tab_name).
	tabX, _, ok := FindText(c.Screen(), "1:1")
	if !ok {
		t.Fatalf("no tab 1:1 in the tab bar:\n%s", c.Screen())
	}
	rightClick(c, tabX, 0)
	screen = c.WaitText(t, "New tab")
	if !strings.Contains(screen, "Rename") || !strings.Contains(screen, "Close") {
		t.Errorf("the tab menu lacks rename or close:\n%s", screen)
	}
	c.Type("\r")
	c.WaitText(t, "rename tab")
	c.Type("fromenu\r")
	WaitFor(t, "the new tab named", func() bool {
		for _, tb := range SessionSnapshot(t, s).Tabs {
			if tb.Label == "fromenu" {
				return true
			}
		}
		return false
	})

	// The sidebar: a workspace's menu renames it (down, up, enter).
	label := SessionSnapshot(t, s).Workspaces[0].Label
	wsX, wsY, ok := FindText(c.Screen(), label)
	if !ok || wsX >= TuiSidebar {
		t.Fatalf("no workspace in the sidebar:\n%s", c.Screen())
	}
	rightClick(c, wsX, wsY)
	c.WaitText(t, "Rename")
	c.Type("\x1b[B\x1b[A\r")
	c.WaitText(t, "rename workspace")
	c.Type("\x15renamed\r")
	WaitFor(t, "the workspace renamed", func() bool {
		ws := SessionSnapshot(t, s).Workspaces
		return len(ws) == 1 && ws[0].Label == "renamed"
	})
}

// A right click reaches a program that asked for the mouse only when the
// pane's right_click is "pane" (or with [ui]
// right_click_passthrough_modifier held, which is taken off); otherwise,
// and always on the frame, the menu opens and the program gets nothing.
func TestTUI_RightClickPassthrough_ReachesMouseApp(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\nright_click_passthrough_modifier = \"alt\"\n")
	s := h.Start(t, "rpass")
	c := Attach(t, h, "rpass", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	if strings.Contains(c.Screen(), "right_click_passthrough_modifier") {
		t.Errorf("the modifier is honoured, yet a diagnostic names it:\n%s", c.Screen())
	}
	ShellReady(t, c, "ready")
	// A program that asks for SGR mouse reports and shows what it reads.
	c.Type(`printf '\033[?1000h\033[?1006h'; echo mouse-on-$((6*7)); stty raw -echo; cat -v` + "\r")
	c.WaitText(t, "mouse-on-42")
	inside := func(x, y int) string { // the report's coordinates of window cell (x, y)
		return ";" + strconv.Itoa(x-TuiSidebar) + ";" + strconv.Itoa(y-1)
	}

	// right_click = herdr (the default): the menu, even over this program.
	rightClick(c, 60, 10)
	c.WaitText(t, "Send right-clicks to pane")
	c.Type("\x1b")
	c.WaitScreen(t, "the menu to close", func(sc string) bool { return !strings.Contains(sc, "Send right-clicks") })
	if strings.Contains(c.Screen(), "^[[<2;") {
		t.Fatalf("the program got the right click that opened the menu:\n%s", c.Screen())
	}

	// The passthrough modifier (alt: button 2+8) sends it on, without alt.
	c.Type(SgrMouse(rightButton+8, 40, 12, false) + SgrMouse(rightButton+8, 40, 12, true))
	c.WaitText(t, "^[[<2"+inside(40, 12)+"M^[[<2"+inside(40, 12)+"m")

	OK[protocol.OK](t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p1", "right_click": "pane"}), "ok")
	// The frame still opens the menu, which now offers Herdr's menu back.
	frameMenuOffers(t, c, "Use Herdr right-click menu")

	rightClick(c, 50, 20)
	c.WaitText(t, "^[[<2"+inside(50, 20)+"M^[[<2"+inside(50, 20)+"m")
	if strings.Contains(c.Screen(), "Rename pane") {
		t.Fatalf("a menu opened for a right click the program took:\n%s", c.Screen())
	}

	// Choosing "Use Herdr right-click menu" from the frame's menu puts the
	// menu back on the inside.
	rightClick(c, TuiSidebar, 8)
	screen := c.WaitText(t, "Use Herdr right-click menu")
	x, y, _ := FindText(screen, "Use Herdr right-click menu")
	c.Type(SgrMouse(0, x, y, false) + SgrMouse(0, x, y, true))
	c.WaitScreen(t, "the menu to close", func(sc string) bool { return !strings.Contains(sc, "Use Herdr right-click") })
	frameMenuOffers(t, c, "Send right-clicks to pane")
	rightClick(c, 70, 25)
	c.WaitText(t, "Send right-clicks to pane")
	if strings.Contains(c.Screen(), inside(70, 25)+"M") {
		t.Errorf("the program got a right click after the menu came back:\n%s", c.Screen())
	}
}

// The client learns a pane's right_click from its screen frames: a
// pane.input.set sends a frame whose modes say so, and "herdr" takes it
// back; pane.split right_click=pane starts the new pane with it.
func TestE2E_ScreenFrames_CarryRightClick(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	watch := s.Dial(t)
	_ = watch.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	subscribe := func(ids ...string) {
		sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": ids}})
		if err := watch.WriteLine(sub); err != nil {
			t.Fatal(err)
		}
	}
	// nextModes reads lines until a frame of id whose modes satisfy cond.
	nextModes := func(id string, want bool) {
		t.Helper()
		for {
			line, err := watch.ReadLine()
			if err != nil {
				t.Fatalf("waiting for %s's frame with right_click_pane=%v: %v", id, want, err)
			}
			var ev struct {
				Event string               `json:"event"`
				Data  protocol.ScreenFrame `json:"data"`
			}
			if json.Unmarshal(line, &ev) == nil && ev.Event == protocol.ScreenFrameEvent && ev.Data.PaneID == id && ev.Data.Modes.RightClickPane == want {
				return
			}
		}
	}
	subscribe(pane)
	nextModes(pane, false)
	OK[protocol.OK](t, s.Call("pane.input.set", map[string]any{"pane_id": pane, "right_click": "pane"}), "ok")
	nextModes(pane, true)
	OK[protocol.OK](t, s.Call("pane.input.set", map[string]any{"pane_id": pane, "right_click": "herdr"}), "ok")
	nextModes(pane, false)

	split := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": pane, "direction": "right", "right_click": "pane"}), "pane_info").Pane
	subscribe(pane, split.PaneID)
	nextModes(split.PaneID, true)
}
