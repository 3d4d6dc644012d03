package tui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// key handles a key press according to the mode. Characters that arrived
// together come as one message ("hhh", or a paste); outside the terminal
// mode each is a key of its own, and the mode may change between them
// (prefix, then "v", then text for the new pane).
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	m.diags = nil // the config's problems were read: typing puts them away
	m.git.typed = time.Now()
	if esc, rest, ok := m.keys.escThenPrefix(k); ok {
		return tea.Batch(m.key1(esc), m.key(rest))
	}
	if text, ok := typedText(k); ok && k.Code != keyPaste && utf8.RuneCountInString(text) > 1 && m.mode != modeTerminal {
		var cmds []tea.Cmd
		for i, r := range text {
			if m.mode == modeTerminal {
				return tea.Batch(append(cmds, m.key1(textKey(text[i:])))...)
			}
			cmds = append(cmds, m.key1(textKey(string(r))))
		}
		return tea.Batch(cmds...)
	}
	return m.key1(k)
}

// key1 handles one key (or, in terminal mode, a run of characters).
func (m *model) key1(k tea.KeyPressMsg) tea.Cmd {
	switch m.mode {
	case modeHelp:
		m.mode = modeTerminal
		return nil
	case modeRename:
		return m.rename.key(k)
	case modeResize:
		return m.resizeKey(k)
	case modePicker:
		return m.picker.key(k)
	case modeNavigate:
		return m.nav.key(k)
	case modeConfirm:
		return m.confirm.key(k)
	case modeCopy:
		return m.copy.copyKey(k)
	case modeSettings:
		return m.settings.key(k)
	case modeMenu:
		return m.menus.key(k)
	case modeDiff, modeInbox:
		return m.viewKey(keyName(k))
	case modeTaskDock:
		if m.keys.isPrefix(k) {
			m.mode = modePrefix
			return nil
		}
		return m.tasks.dockKey(k)
	case modeTaskBoard:
		return m.tasks.boardKey(k)
	case modeTaskActivity:
		return m.tasks.modalKey(k, m.geometry())
	case modeChooser:
		return m.tmux.chooserKey(k) // chooser.go
	case modePrompt:
		return m.tmux.promptKey(k) // cmdprompt.go
	case modePrefix:
		m.mode = modeTerminal
		if c, ok := m.keys.commands[keyName(k)]; ok {
			return m.keyCmds.run(c)
		}
		b, ok := m.keys.lookup(k)
		if !ok && k.Code != tea.KeyEscape {
			return m.toast.show(m.keys.unboundHint(k))
		}
		if !ok {
			return nil // esc leaves prefix mode
		}
		return runBinding(m, b, k)
	}
	m.msel.sel = nil // typing ends a mouse selection
	if m.keys.isPrefix(k) {
		m.mode = modePrefix
		return nil
	}
	if m.fleet.selected != "" {
		return m.remote.input(k) // the pane shown is a machine's
	}
	m.sendKey(k)
	return nil
}

// sendKey writes a key to the focused pane, encoded for its modes.
func (m *model) sendKey(k tea.KeyPressMsg) {
	id := m.focusedPaneID()
	var modes protocol.ScreenModes
	if s := m.screens[id]; s != nil {
		modes = s.modes
	}
	if m.popup != nil { // keys go to the popup while it is open
		id, modes = m.popup.st.TerminalID, m.popup.screen.modes
	}
	if id == "" {
		return
	}
	if b, ok := keyBytes(k, modes); ok {
		m.input.add(id, b)
	}
}

// keyBytes is what a key (or a paste) writes to a pane in these modes.
func keyBytes(k tea.KeyPressMsg, modes protocol.ScreenModes) ([]byte, bool) {
	if k.Code == keyPaste {
		text := k.Text
		if modes.BracketedPaste {
			text = "\x1b[200~" + text + "\x1b[201~"
		}
		return []byte(text), true
	}
	return encodeKey(k, modes.AppCursor, modes.KittyKeys&kittyDisambiguate != 0)
}

// resizeStep is how far one key moves a border in resize mode.
const resizeStep = 0.05

func (m *model) resizeKey(k tea.KeyPressMsg) tea.Cmd {
	d := ""
	switch k.String() {
	case "h", "left":
		d = "left"
	case "j", "down":
		d = "down"
	case "k", "up":
		d = "up"
	case "l", "right":
		d = "right"
	case "esc", "enter", "q":
		m.mode = modeTerminal
		return nil
	default:
		return nil
	}
	amount := resizeStep
	m.call("pane.resize", protocol.PaneResizeParams{Direction: d, Amount: &amount})
	return nil
}

// --- mouse -------------------------------------------------------------------

// dragState is a split border being dragged.
type dragState struct {
	tabID string
	path  []bool
	dir   string
	rect  protocol.Rect // the split's rectangle, pane-area coordinates
	last  float64
}

// paneInside is the rectangle of a visible pane's inside in layout l, in
// window cells of geometry g.
func paneInside(l protocol.PaneLayoutSnapshot, g geometry, id string) (r struct{ X, Y, W, H int }, ok bool) {
	for _, p := range l.Panes {
		if p.PaneID != id || l.Zoomed && p.PaneID != l.FocusedPaneID {
			continue
		}
		pr := p.Rect
		if l.Zoomed {
			pr = l.Area
		}
		r.X, r.Y, r.W, r.H = g.area.X+pr.X+1, g.area.Y+pr.Y+1, pr.Width-2, pr.Height-2
		return r, true
	}
	return r, false
}

// wheelLines is the screen.scroll amount of a wheel event, n lines a notch
// ([ui] mouse_scroll_lines), 0 for other events.
func wheelLines(ev mouseMsg, n int) int {
	wheelScrollLines := max(n, 1)
	if ev.Action != mousePress {
		return 0
	}
	switch ev.Button {
	case tea.MouseWheelUp:
		return wheelScrollLines
	case tea.MouseWheelDown:
		return -wheelScrollLines
	}
	return 0
}

// grabSplit finds the innermost split whose border (the two columns or
// rows where its children's frames meet) is at (x, y).
func grabSplit(l protocol.PaneLayoutSnapshot, x, y int) *dragState {
	var best *dragState
	bestArea := -1
	for _, s := range l.Splits {
		r := s.Rect
		if x < r.X || y < r.Y || x >= r.X+r.Width || y >= r.Y+r.Height {
			continue
		}
		var hit bool
		if s.Direction == "right" {
			b := r.X + int(float64(r.Width)*s.Ratio+0.5)
			hit = x == b-1 || x == b
		} else {
			b := r.Y + int(float64(r.Height)*s.Ratio+0.5)
			hit = y == b-1 || y == b
		}
		if !hit || (bestArea >= 0 && r.Width*r.Height >= bestArea) {
			continue
		}
		tabID, path, ok := splitPath(s.ID)
		if !ok {
			continue
		}
		bestArea = r.Width * r.Height
		best = &dragState{tabID: tabID, path: path, dir: s.Direction, rect: r, last: s.Ratio}
	}
	return best
}

// splitPath parses a split id "w1:t1:root.0.1" into its tab and path.
func splitPath(id string) (tabID string, path []bool, ok bool) {
	i := strings.LastIndex(id, ":root")
	if i < 0 {
		return "", nil, false
	}
	tabID, rest := id[:i], strings.TrimPrefix(id[i+1:], "root")
	path = []bool{}
	for _, part := range strings.Split(strings.TrimPrefix(rest, "."), ".") {
		switch part {
		case "":
		case "0":
			path = append(path, false)
		case "1":
			path = append(path, true)
		default:
			return "", nil, false
		}
	}
	return tabID, path, true
}

// encodeMouse encodes a mouse event at pane cell (x, y) for a program that
// asked for mouse reports (SGR or the legacy X10 form).
func encodeMouse(ev mouseMsg, x, y int, sgrMode bool) []byte {
	if x < 0 || y < 0 {
		return nil
	}
	var b int
	switch ev.Button {
	case tea.MouseLeft:
		b = 0
	case tea.MouseMiddle:
		b = 1
	case tea.MouseRight:
		b = 2
	case tea.MouseWheelUp:
		b = 64
	case tea.MouseWheelDown:
		b = 65
	case tea.MouseNone:
		b = 3
	default:
		return nil
	}
	if ev.Action == mouseMotion {
		b += 32
	}
	if ev.Shift {
		b += 4
	}
	if ev.Alt {
		b += 8
	}
	if ev.Ctrl {
		b += 16
	}
	if sgrMode {
		end := 'M'
		if ev.Action == mouseRelease {
			end = 'm'
		}
		return []byte(fmt.Sprintf("\x1b[<%d;%d;%d%c", b, x+1, y+1, end))
	}
	if ev.Action == mouseRelease {
		b = 3
	}
	if x+33 > 255 || y+33 > 255 {
		return nil
	}
	return []byte("\x1b[M" + string([]byte{byte(32 + b), byte(33 + x), byte(33 + y)}))
}

// viewKey hands a key to the open full-area view (the review diff, the
// inbox) and goes back to the terminal once it closes.
func (m *model) viewKey(k string) tea.Cmd {
	cmd, open := m.diff.key, &m.diff.open
	if m.mode == modeInbox {
		cmd, open = m.inbox.key, &m.inbox.open
	}
	c := cmd(k)
	if !*open {
		m.mode = modeTerminal
	}
	return c
}
