package tui

import (
	"math"

	tea "charm.land/bubbletea/v2"

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
func (sb *sidebar) sectionSplit() float64 {
	if sb.split > 0 && sb.split < 1 {
		return sb.split
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
func (sb *sidebar) dividerRow() int {
	if !sb.h.expanded() || sb.h.height() < 6 {
		return -1
	}
	return spacesRows(sb.h.height(), sb.sectionSplit())
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
func (sb *sidebar) followFocusedSpace() {
	id := sb.h.fleet().selected // a machine's workspace shown (machines.go)
	if f := sb.h.snapshot().FocusedWorkspaceID; f != nil && id == "" {
		id = *f
	}
	if id == sb.followed {
		return
	}
	sb.followed = id
	entries := sb.spaceEntries()
	body := spacesBody(spacesRows(sb.h.height(), sb.sectionSplit()))
	at := -1
	for i, e := range entries {
		if e.id == id {
			at = i
		}
	}
	if at < 0 || body == 0 {
		return
	}
	first := min(spaceFirst(entries, sb.scroll, body), at)
	for at >= first+spacesShown(entries, first, body) {
		first++
	}
	sb.scroll = spaceFirst(entries, first, body)
}

// scrollSpaces moves the list by n spaces (a wheel notch is one).
func (sb *sidebar) scrollSpaces(n int) {
	entries := sb.spaceEntries()
	body := spacesBody(spacesRows(sb.h.height(), sb.sectionSplit()))
	// From the first shown: a taller window may show more than the scroll.
	sb.scroll = spaceFirst(entries, spaceFirst(entries, sb.scroll, body)+n, body)
}

// drawSpacesScrollbar draws the spaces' scrollbar in the section's last
// column, over the body, while they scroll: Herdr's track and thumb.
func (sb *sidebar) drawSpacesScrollbar(c *canvas, x int) {
	entries := sb.spaceEntries()
	body := spacesBody(spacesRows(sb.h.height(), sb.sectionSplit()))
	maxOff := spacesLast(entries, body)
	if maxOff == 0 || body == 0 {
		return
	}
	first := spaceFirst(entries, sb.scroll, body)
	shown := spacesShown(entries, first, body)
	total := maxOff + shown
	thumb := min(max((shown*body+total/2)/total, 1), body)
	top := ((body-thumb)*first*2 + maxOff) / (2 * maxOff) // rounded
	bg := sb.h.th().p.sidebarBg
	for y := range body {
		st := cellStyle{fg: sb.h.th().p.surfaceDim, bg: bg}
		if y >= top && y < top+thumb {
			st.fg = sb.h.th().p.overlay0
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
func (sb *sidebar) grabSidebar(ev mouseMsg, g geometry) bool {
	if ev.Action != mousePress || ev.Button != tea.MouseLeft || !sb.h.expanded() || g.sidebarW == 0 {
		return false
	}
	switch {
	case ev.X == g.sidebarW-1:
		sb.drag = &sideDrag{width: true, from: float64(sb.h.uiConfig().SidebarWidth)}
	case ev.Y == sb.dividerRow():
		sb.drag = &sideDrag{from: sb.sectionSplit()}
	default:
		return false
	}
	sb.dragSidebar(ev)
	return true
}

// dragSidebar follows the drag; the release tells the session a change.
func (sb *sidebar) dragSidebar(ev mouseMsg) {
	d := sb.drag
	if d.width {
		// The border is the sidebar's last column, as Herdr counts it.
		w := min(max(ev.X+1, sb.h.uiConfig().SidebarMinWidth, 1), sb.h.uiConfig().SidebarMaxWidth)
		sb.h.uiConfig().SidebarWidth = w
		if ev.Action == mouseRelease {
			sb.drag = nil
			if float64(w) != d.from {
				sb.h.keepWidth(w)
			}
		}
		sb.h.claimSize(false)
		return
	}
	if sb.h.height() >= 6 {
		sb.split = min(max(float64(ev.Y)/float64(sb.h.height()), 0.1), 0.9)
	}
	if ev.Action == mouseRelease {
		sb.drag = nil
		if split := sb.sectionSplit(); split != d.from {
			sb.h.send("client.ui_state.set", protocol.ClientUIStateSetParams{SidebarSectionSplit: &split})
		}
	}
}

// mouse takes the sidebar's clicks, drags of its borders and the wheel
// over its spaces; menu says a right press opens a menu (the keys' mode
// allows one).
func (sb *sidebar) mouse(ev mouseMsg, g geometry, menu bool) {
	if sb.grabSidebar(ev, g) {
		return
	}
	if n := wheelLines(ev, 1); n != 0 && sb.h.expanded() && ev.Y < spacesRows(sb.h.height(), sb.sectionSplit()) {
		sb.scrollSpaces(-n) // a notch is one space, as Herdr's
		return
	}
	if menu {
		for _, it := range sb.sideItems() {
			if it.y == ev.Y && it.kind == "workspace" {
				sb.h.openWorkspaceMenu(ev, it.id)
			}
			if it.y == ev.Y && it.kind == "header" {
				sb.h.openGlobalMenu(ev)
			}
		}
		return
	}
	if ev.Action == mousePress && ev.Button == tea.MouseLeft {
		for _, it := range sb.sideItems() {
			if it.y == ev.Y {
				sb.click(ev, it)
			}
		}
	}
}

// click is a left click on a sidebar row.
func (sb *sidebar) click(ev mouseMsg, it sideItem) {
	fl := sb.h.fleet()
	switch it.kind {
	case "workspace":
		// The chevron after the icon folds a worktree group.
		if it.toggle != "" && ev.X >= it.x+2 && ev.X < it.x+4 {
			sb.toggleGroup(it.toggle)
			return
		}
		fl.selected = "" // back from a machine's workspace
		sb.h.send("workspace.focus", protocol.WorkspaceTarget{WorkspaceID: it.id})
	case "machine":
		fl.toggle(it.id)
	case "remote-workspace", "remote-agent":
		if ws := fl.workspaceOf(it); ws != "" {
			fl.selected = ws // the local session's focus is left where it is
			sb.followFocusedSpace()
		}
	case "agent":
		fl.selected = "" // a local agent's pane is shown again
		sb.h.send("pane.focus", protocol.PaneTarget{PaneID: it.id})
	}
}
