package tui

import (
	"strings"
	"time"

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

// mouseSelect is the mouse selection as a component: the selection
// and the last press (for double and triple clicks), over the screens the
// host shows.
type mouseSelect struct {
	sel  *mouseSel // nil: no selection
	last mouseSel  // the last press in a pane
	host screenSource
}

// screenSource gives the screens of the panes shown.
type screenSource interface {
	screen(paneID string) *paneScreen
}

// press starts a selection at pane cell (x, y).
func (ms *mouseSelect) press(paneID string, x, y int) {
	if sc := ms.host.screen(paneID); sc == nil || x < 0 || y < 0 || x >= sc.cols || y >= sc.rows {
		return // on the frame, or outside the screen
	}
	now := time.Now()
	clicks := 1
	if c := ms.last; c.paneID == paneID && c.x0 == x && c.y0 == y && now.Sub(c.at) < multiClick && c.clicks < 3 {
		clicks = c.clicks + 1
	}
	ms.sel = &mouseSel{paneID: paneID, x0: x, y0: y, x1: x, y1: y, dragging: true, clicks: clicks, at: now}
	ms.last = *ms.sel
}

// motion and release follow a drag; both say whether a selection was
// being dragged.
func (ms *mouseSelect) motion(x, y int) bool {
	s := ms.sel
	if s == nil || !s.dragging {
		return false
	}
	if sc := ms.host.screen(s.paneID); sc != nil {
		x, y = min(max(x, 0), max(sc.cols-1, 0)), min(max(y, 0), max(sc.rows-1, 0))
	}
	s.x1, s.y1 = x, y
	return true
}

// release ends a drag: text is what it selected (a word for a double
// click, a line for a triple click), "" for a plain click.
func (ms *mouseSelect) release() (dragged bool, text string) {
	s := ms.sel
	if s == nil || !s.dragging {
		return false, ""
	}
	s.dragging = false
	sc := ms.host.screen(s.paneID)
	if sc == nil {
		return true, ""
	}
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
		ms.sel = nil // a plain click
		return true, ""
	default:
		text = ms.text()
	}
	return true, text
}

// ordered returns the selection's ends in reading order.
func (s *mouseSel) ordered() (sx, sy, ex, ey int) {
	sx, sy, ex, ey = s.x0, s.y0, s.x1, s.y1
	if sy > ey || sy == ey && sx > ex {
		sx, sy, ex, ey = ex, ey, sx, sy
	}
	return
}

// text is the selected text, lines joined by \n.
func (ms *mouseSelect) text() string {
	s := ms.sel
	sc := ms.host.screen(s.paneID)
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
