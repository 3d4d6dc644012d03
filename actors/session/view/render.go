package view

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The rendering of every record the View holds, pure functions of the
// model and of what each pane last told the session: the session renders
// its answers with them too, so an answer and a read of the same state
// agree to the byte.

// PaneIn is everything of a pane its records are rendered from but its
// agent (agents.Shown); comparable, so the session can tell an unchanged
// pane from a changed one.
type PaneIn struct {
	ID, TermID, WS, Tab, Label, Cwd string
	RestoreError                    string // why a restored pane is not as saved
	Focused                         bool
	Rows                            int // its terminal's rows
	Facts                           pane.Facts
}

// PaneInfo is a pane's record.
func PaneInfo(in PaneIn, shown *agents.Shown) protocol.PaneInfo {
	info := protocol.PaneInfo{
		PaneID:      in.ID,
		TerminalID:  in.TermID,
		WorkspaceID: in.WS,
		TabID:       in.Tab,
		Focused:     in.Focused,
		Cwd:         protocol.Ptr(in.Cwd),
		Revision:    in.Facts.Revision,
		Scroll:      protocol.Ptr(in.Facts.Scroll),
	}
	if in.Facts.Scroll.ViewportRows == 0 {
		info.Scroll.ViewportRows = uint64(in.Rows)
	}
	if in.Label != "" {
		info.Label = protocol.Ptr(in.Label)
	}
	if in.Facts.Agent != "" {
		info.Agent = protocol.Ptr(in.Facts.Agent)
	}
	if in.Facts.ForegroundCwd != "" {
		info.ForegroundCwd = protocol.Ptr(in.Facts.ForegroundCwd)
	}
	if in.Facts.Title != "" {
		info.TerminalTitle = protocol.Ptr(in.Facts.Title)
		info.TerminalTitleStripped = protocol.Ptr(StripSpinner(in.Facts.Title))
	}
	if in.RestoreError != "" {
		info.RestoreError = protocol.Ptr(in.RestoreError)
	}
	shown.Decorate(&info) // the agent's part
	return info
}

// RenderPane is a pane's records: its PaneInfo, and its AgentInfo when it
// hosts an agent.
func RenderPane(in PaneIn, shown *agents.Shown) *Pane {
	rec := &Pane{Info: PaneInfo(in, shown), Shown: shown} // shown is never changed (Record.Shown)
	if shown.HostsAgent() {
		a := shown.Info(rec.Info)
		rec.Agent = &a
	}
	return rec
}

// StripSpinner removes a leading spinner or status glyph and its space,
// which agents put in their titles while working.
func StripSpinner(title string) string {
	r, size := utf8.DecodeRuneInString(title)
	if r >= 0x2800 && r <= 0x28FF || strings.ContainsRune("✳✶✻✽✢·*◐◓◑◒⠂⠐", r) {
		return strings.TrimLeft(title[size:], " ")
	}
	return title
}

// WorkspaceInfo is w's record, w being the number-th workspace of the
// model m, with panes panes whose roll-up is status.
func WorkspaceInfo(m *model.Model, w *model.Workspace, number, panes int, status protocol.AgentStatus) protocol.WorkspaceInfo {
	active := ""
	if w.Active() != nil {
		active = w.Active().ID()
	}
	return protocol.WorkspaceInfo{
		WorkspaceID: w.ID(),
		Number:      number,
		Label:       w.DisplayLabel(),
		Focused:     m.Focused() == w,
		PaneCount:   panes,
		TabCount:    len(w.Tabs()),
		ActiveTabID: active,
		AgentStatus: status,
		Tokens:      w.Tokens(),
		Worktree:    w.Worktree(),
	}
}

// TabInfo is t's record, with panes leaves in its layout and status
// their roll-up.
func TabInfo(m *model.Model, t *model.Tab, panes int, status protocol.AgentStatus) protocol.TabInfo {
	return protocol.TabInfo{
		TabID:       t.ID(),
		WorkspaceID: t.WS().ID(),
		Number:      t.WS().TabIndex(t) + 1,
		Label:       tabLabel(t),
		Focused:     m.TabFocused(t),
		PaneCount:   panes,
		AgentStatus: status,
	}
}

// tabLabel is t's label as its record shows it: its position when it has
// none of its own.
func tabLabel(t *model.Tab) string {
	if t.Label() == "" {
		return strconv.Itoa(t.WS().TabIndex(t) + 1)
	}
	return t.Label()
}

// Layout is t's layout in m's tab area.
func Layout(m *model.Model, t *model.Tab) protocol.PaneLayoutSnapshot {
	paneID := func(termID string) string { return m.Term(termID).ID() }
	panes := m.TabRects(t)
	_, splits := t.Root().Compute(m.Area())
	snap := protocol.PaneLayoutSnapshot{
		WorkspaceID:   t.WS().ID(),
		TabID:         t.ID(),
		Zoomed:        t.Zoomed(),
		Area:          WireRect(m.Area()),
		FocusedPaneID: paneID(t.Focused()),
		Panes:         make([]protocol.PaneLayoutPane, 0, len(panes)),
		Splits:        make([]protocol.PaneLayoutSplit, 0, len(splits)),
	}
	for _, pr := range panes {
		snap.Panes = append(snap.Panes, protocol.PaneLayoutPane{PaneID: paneID(pr.ID), Focused: pr.ID == t.Focused(), Rect: WireRect(pr.Rect)})
	}
	for _, sr := range splits {
		snap.Splits = append(snap.Splits, protocol.PaneLayoutSplit{ID: t.ID() + ":" + sr.ID(), Direction: string(sr.Dir), Ratio: sr.Ratio, Rect: WireRect(sr.Rect)})
	}
	return snap
}

// WireRect is a layout rectangle as the protocol writes it.
func WireRect(r layout.Rect) protocol.Rect {
	return protocol.Rect{X: r.X, Y: r.Y, Width: r.W, Height: r.H}
}

// Worse is the more urgent of two statuses (a roll-up's order).
func Worse(a, b protocol.AgentStatus) protocol.AgentStatus {
	if agents.Rank[b] > agents.Rank[a] {
		return b
	}
	return a
}
