package tui

import (
	"math"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// The expanded sidebar's two sections and its width, as Herdr lays them
// out: the spaces take the session's section split of the sidebar's
// height and scroll, a whole space at a time, when they do not fit; the
// agents section starts below, its header row being the divider the
// mouse drags. The sidebar's right border is dragged to set its width.
// Both are the session's (client.ui_state.set, uistate.go), sent when
// the drag ends.

// defaultSectionSplit is the share of the height the spaces take until
// the session has another (Herdr's default).
const defaultSectionSplit = 0.5

// sectionSplit is the split the sidebar is drawn with.
func (m *model) sectionSplit() float64 {
	if m.split > 0 && m.split < 1 {
		return m.split
	}
	return defaultSectionSplit
}

// spacesRows is how many of the sidebar's rows the spaces section takes;
// the agents header is the row after. The split is held within 0.1..0.9
// and each section keeps three rows; a sidebar under six rows is halved
// and has no divider to drag.
func spacesRows(height int, split float64) int {
	if height <= 0 {
		return 0
	}
	if height < 6 {
		return (height + 1) / 2
	}
	rows := int(math.Round(float64(height) * min(max(split, 0.1), 0.9)))
	return min(max(rows, 3), height-3)
}

// spacesBody is how many rows of the spaces section list spaces: not its
// header, nor the blank row above the divider.
func spacesBody(spaces int) int { return max(spaces-2, 0) }

// dividerRow is the agents header's row, or -1 when the sidebar is too
// short for a divider.
func (m *model) dividerRow() int {
	if !m.sidebar || m.height < 6 {
		return -1
	}
	return spacesRows(m.height, m.sectionSplit())
}

// spaceEntry is one space of the list: its rows (y counted from its
// first) and the gap after it.
type spaceEntry struct {
	id   string
	rows []sideItem
	gap  int
}

// spacesLast is the first space of the list's end: the last the scroll
// may start from, the body then still filled.
func spacesLast(entries []spaceEntry, body int) int {
	used, last := 0, len(entries)
	for i := len(entries) - 1; i >= 0; i-- {
		need := min(len(entries[i].rows), body)
		if i < len(entries)-1 {
			need += entries[i].gap
		}
		if used+need > body {
			break
		}
		used, last = used+need, i
	}
	return max(min(last, len(entries)-1), 0)
}

// spaceFirst is the first space shown for a scroll.
func spaceFirst(entries []spaceEntry, scroll, body int) int {
	return max(min(scroll, spacesLast(entries, body)), 0)
}

// spacesShown is how many spaces from first fit in body rows; a space
// taller than the body shows its first rows alone.
func spacesShown(entries []spaceEntry, first, body int) int {
	used, n := 0, 0
	for _, e := range entries[first:] {
		if used+len(e.rows) > body && !(n == 0 && body > 0) {
			break
		}
		used = min(used+len(e.rows)+e.gap, body)
		n++
	}
	return n
}

// followFocusedSpace scrolls the list to the focused space when the
// focus moved to another, as Herdr does; a wheel may scroll it away.
func (m *model) followFocusedSpace() {
	id := m.fleet.selected // a machine's workspace shown (machines.go)
	if f := m.snap.FocusedWorkspaceID; f != nil && id == "" {
		id = *f
	}
	if id == m.followed {
		return
	}
	m.followed = id
	entries := m.spaceEntries()
	body := spacesBody(spacesRows(m.height, m.sectionSplit()))
	at := -1
	for i, e := range entries {
		if e.id == id {
			at = i
		}
	}
	if at < 0 || body == 0 {
		return
	}
	first := min(spaceFirst(entries, m.spaceScroll, body), at)
	for at >= first+spacesShown(entries, first, body) {
		first++
	}
	m.spaceScroll = spaceFirst(entries, first, body)
}

// scrollSpaces moves the list by n spaces (a wheel notch is one).
func (m *model) scrollSpaces(n int) {
	entries := m.spaceEntries()
	body := spacesBody(spacesRows(m.height, m.sectionSplit()))
	// From the first shown: a taller window may show more than the scroll.
	m.spaceScroll = spaceFirst(entries, spaceFirst(entries, m.spaceScroll, body)+n, body)
}

// drawSpacesScrollbar draws the spaces' scrollbar in the section's last
// column, over the body, while they scroll: Herdr's track and thumb.
func (m *model) drawSpacesScrollbar(c *canvas, x int) {
	entries := m.spaceEntries()
	body := spacesBody(spacesRows(m.height, m.sectionSplit()))
	maxOff := spacesLast(entries, body)
	if maxOff == 0 || body == 0 {
		return
	}
	first := spaceFirst(entries, m.spaceScroll, body)
	shown := spacesShown(entries, first, body)
	total := maxOff + shown
	thumb := min(max((shown*body+total/2)/total, 1), body)
	top := ((body-thumb)*first*2 + maxOff) / (2 * maxOff) // rounded
	bg := m.theme.p.sidebarBg
	for y := range body {
		st := cellStyle{fg: m.theme.p.surfaceDim, bg: bg}
		if y >= top && y < top+thumb {
			st.fg = m.theme.p.overlay0
		}
		c.set(x, 1+y, "▕", 1, st)
	}
}

// sideDrag is the section divider or the sidebar's border being dragged.
type sideDrag struct {
	width bool    // the border: the sidebar's width; else the divider
	from  float64 // the split or width when the press came, to send only a change
}

// grabSidebar starts a drag when a left press lands on the divider or on
// the expanded sidebar's border, so it is no click on an item.
func (m *model) grabSidebar(ev tea.MouseMsg, g geometry) bool {
	if ev.Action != tea.MouseActionPress || ev.Button != tea.MouseButtonLeft || !m.sidebar || g.sidebarW == 0 {
		return false
	}
	switch {
	case ev.X == g.sidebarW-1:
		m.sideDrag = &sideDrag{width: true, from: float64(m.ui.SidebarWidth)}
	case ev.Y == m.dividerRow():
		m.sideDrag = &sideDrag{from: m.sectionSplit()}
	default:
		return false
	}
	m.dragSidebar(ev)
	return true
}

// dragSidebar follows the drag; the release tells the session a change.
func (m *model) dragSidebar(ev tea.MouseMsg) {
	d := m.sideDrag
	if d.width {
		// The border is the sidebar's last column, as Herdr counts it.
		w := min(max(ev.X+1, m.ui.SidebarMinWidth, 1), m.ui.SidebarMaxWidth)
		m.ui.SidebarWidth = w
		if ev.Action == tea.MouseActionRelease {
			m.sideDrag = nil
			if float64(w) != d.from {
				m.sessionWidth = w
				m.setSessionWidth(w)
			}
		}
		m.claimSize(false)
		return
	}
	if m.height >= 6 {
		m.split = min(max(float64(ev.Y)/float64(m.height), 0.1), 0.9)
	}
	if ev.Action == tea.MouseActionRelease {
		m.sideDrag = nil
		if split := m.sectionSplit(); split != d.from {
			m.call("client.ui_state.set", protocol.ClientUIStateSetParams{SidebarSectionSplit: &split})
		}
	}
}
