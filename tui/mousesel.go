package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/emulator"
)

// Selecting with the mouse in a pane whose program did not ask for the
// mouse: a drag selects and, on release, copies (copy_on_select); a double
// click copies the word under the pointer, a triple click the line. The
// copy goes to the system clipboard through OSC 52.

// multiClick is how close in time clicks at one cell count as one
// double or triple click.
const multiClick = 400 * time.Millisecond

// mouseSel is a selection on a pane's visible screen, in its cells.
type mouseSel struct {
	paneID         string
	x0, y0, x1, y1 int
	dragging       bool
	clicks         int
	at             time.Time
}

// selectPress starts a selection at pane cell (x, y).
func (m *model) selectPress(paneID string, x, y int) {
	if sc := m.screens[paneID]; sc == nil || x < 0 || y < 0 || x >= sc.cols || y >= sc.rows {
		return // on the frame, or outside the screen
	}
	now := time.Now()
	clicks := 1
	if c := m.lastClick; c.paneID == paneID && c.x0 == x && c.y0 == y && now.Sub(c.at) < multiClick && c.clicks < 3 {
		clicks = c.clicks + 1
	}
	m.msel = &mouseSel{paneID: paneID, x0: x, y0: y, x1: x, y1: y, dragging: true, clicks: clicks, at: now}
	m.lastClick = *m.msel
}

// selectMotion and selectRelease follow a drag; both return true when a
// selection was being dragged.
func (m *model) selectMotion(x, y int) bool {
	s := m.msel
	if s == nil || !s.dragging {
		return false
	}
	if sc := m.screens[s.paneID]; sc != nil {
		x, y = min(max(x, 0), max(sc.cols-1, 0)), min(max(y, 0), max(sc.rows-1, 0))
	}
	s.x1, s.y1 = x, y
	return true
}

func (m *model) selectRelease() (bool, tea.Cmd) {
	s := m.msel
	if s == nil || !s.dragging {
		return false, nil
	}
	s.dragging = false
	sc := m.screens[s.paneID]
	if sc == nil {
		return true, nil
	}
	var text string
	switch {
	case s.clicks == 2:
		cells := sc.cells(s.y0)
		a, b := s.x0, s.x0
		for a > 0 && !isBlankCell(cells[a-1]) {
			a--
		}
		for b < len(cells) && !isBlankCell(cells[b]) {
			b++
		}
		s.x0, s.x1, s.y1 = a, b-1, s.y0
		text = strings.Join(cells[a:b], "")
	case s.clicks == 3:
		s.x0, s.x1, s.y1 = 0, sc.cols-1, s.y0
		text = strings.TrimRight(sc.text(s.y0), " ")
	case s.x0 == s.x1 && s.y0 == s.y1:
		m.msel = nil // a plain click
		return true, nil
	default:
		text = m.mouseSelection()
	}
	if text == "" || !m.copyOnSelect {
		return true, nil
	}
	return true, m.copyToClipboard(text)
}

// ordered returns the selection's ends in reading order.
func (s *mouseSel) ordered() (sx, sy, ex, ey int) {
	sx, sy, ex, ey = s.x0, s.y0, s.x1, s.y1
	if sy > ey || sy == ey && sx > ex {
		sx, sy, ex, ey = ex, ey, sx, sy
	}
	return
}

// mouseSelection is the selected text, lines joined by \n.
func (m *model) mouseSelection() string {
	s := m.msel
	sc := m.screens[s.paneID]
	if sc == nil {
		return ""
	}
	sx, sy, ex, ey := s.ordered()
	var out []string
	for y := sy; y <= ey; y++ {
		cells := sc.cells(y)
		from, to := 0, len(cells)
		if y == sy {
			from = min(sx, len(cells))
		}
		if y == ey {
			to = min(ex+1, len(cells))
		}
		out = append(out, strings.TrimRight(strings.Join(cells[from:max(to, from)], ""), " "))
	}
	return strings.Join(out, "\n")
}

// selected reports whether pane cell (x, y) is in the mouse selection.
func (s *mouseSel) selected(x, y int) bool {
	sx, sy, ex, ey := s.ordered()
	if y < sy || y > ey {
		return false
	}
	return (y > sy || x >= sx) && (y < ey || x <= ex)
}

// cells returns row y split into cells, as wide as the screen.
func (s *paneScreen) cells(y int) []string {
	out := make([]string, s.cols)
	for i := range out {
		out[i] = " "
	}
	if y < 0 || y >= len(s.lines) {
		return out
	}
	for _, r := range s.lines[y] {
		x := r.X
		for _, cl := range splitCells(r.Text) {
			if x >= len(out) {
				break
			}
			out[x] = cl
			x++
		}
	}
	return out
}

// splitCells splits a line into cells by the emulator's rule; "" follows
// a wide cell.
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

func isBlankCell(s string) bool { return s == " " || s == "" }
