package tui

import (
	"encoding/base64"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Copy mode (prefix [): the focused pane's history and screen, read once
// with pane.read and frozen, drawn in the pane's place. Keys move a cursor
// (vi motions, arrows and a few emacs keys), scroll by line, half page and
// page, search forward (/) and back (?) with every match highlighted,
// select (v or space) and copy (y or enter) to the system clipboard through
// OSC 52 written to the outer terminal; q or esc leave.

// copyLines is how much history copy mode reads (pane.read's cap).
const copyLines = 1000

// copyState is copy mode's buffer, cursor, selection and search.
type copyState struct {
	paneID string
	lines  [][]string // cells of each line; "" follows a wide cell
	rows   int        // rows of the pane's inside
	top    int        // first line shown
	x, y   int        // cursor: cell column and line
	sel    bool       // a selection runs from (sx, sy) to the cursor
	sx, sy int
	query  string
	typing bool   // the search query is being typed
	back   bool   // the search goes backwards
	prompt []rune // the query being typed
}

// copyLoadedMsg carries the text copy mode works on.
type copyLoadedMsg struct {
	paneID string
	text   string
	err    error
}

// enterCopy reads the focused pane's history; copy mode starts when it
// arrives.
func (m *model) enterCopy() tea.Cmd {
	id := m.focusedPaneID()
	if id == "" {
		return nil
	}
	conn, n := m.link.req, uint32(copyLines)
	return func() tea.Msg {
		var res protocol.PaneRead
		err := conn.call("pane.read", protocol.PaneReadParams{PaneID: id, Source: "recent", Lines: &n}, &res)
		return copyLoadedMsg{paneID: id, text: res.Read.Text, err: err}
	}
}

// copyLoaded starts copy mode on what was read. The read ends at the last
// non-blank row of the screen; the client's copy of the screen says how
// many rows follow, so the buffer ends where the screen does and the
// cursor starts where the pane's is.
func (m *model) copyLoaded(msg copyLoadedMsg) tea.Cmd {
	if msg.err != nil {
		return m.showToast("copy mode: " + msg.err.Error())
	}
	s := m.screens[msg.paneID]
	if s == nil || msg.paneID != m.focusedPaneID() || m.mode != modeTerminal {
		return nil
	}
	cs := copyState{paneID: msg.paneID, rows: max(s.rows, 1)}
	for _, l := range strings.Split(msg.text, "\n") {
		cs.lines = append(cs.lines, splitCells(protocol.Printable(l)))
	}
	last := -1
	for y := 0; y < s.rows; y++ {
		if strings.TrimRight(s.text(y), " ") != "" {
			last = y
		}
	}
	screenTop := max(len(cs.lines)-(last+1), 0)
	for len(cs.lines) < screenTop+s.rows {
		cs.lines = append(cs.lines, nil)
	}
	cs.top = screenTop
	cs.x, cs.y = s.cursor.X, min(screenTop+s.cursor.Y, len(cs.lines)-1)
	m.copy = cs
	m.mode = modeCopy
	return nil
}

// splitCells splits a line into cells by the emulator's rule.
func splitCells(s string) []string {
	var out []string
	for s != "" {
		var cl string
		var w int
		cl, s, w = emulator.NextCell(s)
		out = append(out, cl)
		if w == 2 {
			out = append(out, "")
		}
	}
	return out
}

func (m *model) copyKey(k tea.KeyMsg) tea.Cmd {
	c := &m.copy
	if c.typing {
		return m.copyPromptKey(k)
	}
	page := max(c.rows-1, 1)
	switch k.String() {
	case "q", "esc", "ctrl+c":
		if c.sel && k.String() == "esc" {
			c.sel = false
			return nil
		}
		m.mode = modeTerminal
		return nil
	case "h", "left":
		c.x--
	case "l", "right":
		c.x++
	case "j", "down", "ctrl+n":
		c.y++
	case "k", "up", "ctrl+p":
		c.y--
	case "0", "home", "ctrl+a":
		c.x = 0
	case "^":
		c.x = firstNonBlank(c.line(c.y))
	case "$", "end", "ctrl+e":
		c.x = max(len(c.line(c.y))-1, 0)
	case "w":
		c.x, c.y = c.wordForward()
	case "b":
		c.x, c.y = c.wordBack()
	case "g", "alt+<":
		c.x, c.y = 0, 0
	case "G", "alt+>":
		c.x, c.y = 0, len(c.lines)-1
	case "ctrl+u":
		c.scroll(-page / 2)
	case "ctrl+d":
		c.scroll(page / 2)
	case "ctrl+b", "pgup", "alt+v":
		c.scroll(-page)
	case "ctrl+f", "pgdown", "ctrl+v":
		c.scroll(page)
	case "ctrl+y":
		c.top--
		c.y = min(c.y, c.top+c.rows-1)
	case "/", "?":
		c.typing, c.back, c.prompt = true, k.String() == "?", nil
		return nil
	case "n":
		return m.copySearch(c.back)
	case "N":
		return m.copySearch(!c.back)
	case "v", " ", "ctrl+@":
		if c.sel {
			c.sel = false
		} else {
			c.sel, c.sx, c.sy = true, c.x, c.y
		}
	case "y", "enter", "alt+w":
		if !c.sel {
			return nil
		}
		text := c.selection()
		m.mode = modeTerminal
		return m.copyToClipboard(text)
	}
	c.clamp()
	return nil
}

// copyPromptKey edits the search query.
func (m *model) copyPromptKey(k tea.KeyMsg) tea.Cmd {
	c := &m.copy
	switch k.Type {
	case tea.KeyEsc, tea.KeyCtrlC:
		c.typing = false
	case tea.KeyEnter:
		c.typing = false
		if len(c.prompt) > 0 {
			c.query = string(c.prompt)
		}
		return m.copySearch(c.back)
	case tea.KeyBackspace, tea.KeyCtrlH:
		if len(c.prompt) > 0 {
			c.prompt = c.prompt[:len(c.prompt)-1]
		}
	case tea.KeySpace:
		c.prompt = append(c.prompt, ' ')
	case tea.KeyRunes:
		c.prompt = append(c.prompt, k.Runes...)
	}
	return nil
}

// copyToClipboard sends text to the outer terminal's clipboard (OSC 52).
func (m *model) copyToClipboard(text string) tea.Cmd {
	m.toHost = append(m.toHost, osc52(text)...)
	if !m.ui.Toast.ClipboardEnabled { // [ui.toast.clipboard]
		return nil
	}
	return m.showCorner(notice{title: "copied " + strconv.Itoa(len([]rune(text))) + " characters", position: m.ui.Toast.ClipboardPosition})
}

// osc52 is the sequence that sets the system clipboard to text.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

func (c *copyState) line(y int) []string {
	if y < 0 || y >= len(c.lines) {
		return nil
	}
	return c.lines[y]
}

// clamp keeps the cursor in the buffer and on screen.
func (c *copyState) clamp() {
	c.y = min(max(c.y, 0), max(len(c.lines)-1, 0))
	c.x = min(max(c.x, 0), max(len(c.line(c.y))-1, 0))
	for c.x > 0 && c.line(c.y)[c.x] == "" {
		c.x-- // the second half of a wide cell
	}
	c.top = min(max(c.top, 0), max(len(c.lines)-c.rows, 0))
	if c.y < c.top {
		c.top = c.y
	}
	if c.y >= c.top+c.rows {
		c.top = c.y - c.rows + 1
	}
}

// scroll moves the view and the cursor by n lines.
func (c *copyState) scroll(n int) {
	c.top += n
	c.y += n
}

func isBlankCell(s string) bool { return s == " " || s == "" }

func firstNonBlank(l []string) int {
	for i, s := range l {
		if !isBlankCell(s) {
			return i
		}
	}
	return 0
}

// wordForward is the start of the next word (a run of non-blank cells).
func (c *copyState) wordForward() (int, int) {
	x, y := c.x, c.y
	l := c.line(y)
	for x < len(l) && !isBlankCell(l[x]) {
		x++
	}
	for {
		for x < len(l) && isBlankCell(l[x]) {
			x++
		}
		if x < len(l) || y >= len(c.lines)-1 {
			return x, y
		}
		y, x = y+1, 0
		l = c.line(y)
	}
}

// wordBack is the start of the word before the cursor.
func (c *copyState) wordBack() (int, int) {
	x, y := c.x-1, c.y
	for {
		l := c.line(y)
		for x >= 0 && x < len(l) && isBlankCell(l[x]) {
			x--
		}
		if x >= 0 && x < len(l) {
			for x > 0 && !isBlankCell(l[x-1]) {
				x--
			}
			return x, y
		}
		if y == 0 {
			return 0, 0
		}
		y--
		x = len(c.line(y)) - 1
	}
}

// text of line y from cell x0 to x1 (exclusive).
func (c *copyState) text(y, x0, x1 int) string {
	l := c.line(y)
	x1 = min(x1, len(l))
	var b strings.Builder
	for x := max(x0, 0); x < x1; x++ {
		b.WriteString(l[x])
	}
	return b.String()
}

// selection is the selected text, lines joined by \n, trailing blanks of
// each line dropped.
func (c *copyState) selection() string {
	sx, sy, ex, ey := c.sx, c.sy, c.x, c.y
	if sy > ey || sy == ey && sx > ex {
		sx, sy, ex, ey = ex, ey, sx, sy
	}
	var out []string
	for y := sy; y <= ey; y++ {
		from, to := 0, len(c.line(y))
		if y == sy {
			from = sx
		}
		if y == ey {
			to = ex + 1
			if ex+1 < len(c.line(y)) && c.line(y)[ex+1] == "" {
				to++ // the whole of a wide cell
			}
		}
		out = append(out, strings.TrimRight(c.text(y, from, to), " "))
	}
	return strings.Join(out, "\n")
}

// inSelection reports whether cell (x, y) is selected.
func (c *copyState) inSelection(x, y int) bool {
	if !c.sel {
		return false
	}
	sx, sy, ex, ey := c.sx, c.sy, c.x, c.y
	if sy > ey || sy == ey && sx > ex {
		sx, sy, ex, ey = ex, ey, sx, sy
	}
	if y < sy || y > ey {
		return false
	}
	return (y > sy || x >= sx) && (y < ey || x <= ex+1 && (x <= ex || c.line(y)[x] == ""))
}

// copySearch moves the cursor to the next match of the query after (or,
// backwards, before) it, wrapping around.
func (m *model) copySearch(back bool) tea.Cmd {
	c := &m.copy
	if c.query == "" || len(c.lines) == 0 {
		return nil
	}
	n := len(c.lines)
	for i := 0; i <= n; i++ {
		y := c.y + i
		if back {
			y = c.y - i
		}
		y = (y%n + n) % n
		ms := c.matches(y)
		for j := range ms {
			x := ms[j]
			if back {
				x = ms[len(ms)-1-j]
			}
			if i == 0 && (!back && x <= c.x || back && x >= c.x) {
				continue // not past the cursor yet
			}
			c.x, c.y = x, y
			c.clamp()
			return nil
		}
	}
	return m.showToast("not found: " + c.query)
}

// matches are the cell columns where the query starts on line y.
func (c *copyState) matches(y int) []int {
	l := c.line(y)
	var out []int
	for x := range l {
		if l[x] == "" {
			continue
		}
		if strings.HasPrefix(c.text(y, x, len(l)), c.query) {
			out = append(out, x)
		}
	}
	return out
}

// queryCells is how many cells the query covers.
func (c *copyState) queryCells() int { return len(splitCells(c.query)) }

// drawCopy draws the buffer in the pane's inside at (x, y, w, h).
func (m *model) drawCopy(cv *canvas, x, y, w, h int) {
	c := &m.copy
	c.rows = h
	cv.fill(x, y, w, h, " ", cellStyle{})
	qn := c.queryCells()
	for row := 0; row < h; row++ {
		ly := c.top + row
		l := c.line(ly)
		cv.text(x, y+row, c.text(ly, 0, len(l)), w, cellStyle{})
		if c.query != "" {
			for _, mx := range c.matches(ly) {
				for i := mx; i < mx+qn && i < w; i++ {
					cv.restyle(x+i, y+row, func(cellStyle) cellStyle { return m.theme.match })
				}
			}
		}
		for cx := 0; cx < w && cx < len(l); cx++ {
			if c.inSelection(cx, ly) {
				cv.restyle(x+cx, y+row, func(cellStyle) cellStyle { return m.theme.selection })
			}
		}
	}
}

// copyStatus is copy mode's line in the tab bar.
func (m *model) copyStatus() string {
	c := &m.copy
	if c.typing {
		dir := "/"
		if c.back {
			dir = "?"
		}
		return " search " + dir + string(c.prompt) + "▏"
	}
	s := " COPY " + strconv.Itoa(c.y+1) + "/" + strconv.Itoa(len(c.lines))
	if c.sel {
		s += " · y copy"
	} else {
		s += " · v select"
	}
	s += " · / search · q "
	if m.toast != "" {
		s = " " + m.toast + " ·" + s
	}
	return s
}
