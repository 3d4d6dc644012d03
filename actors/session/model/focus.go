package model

import "github.com/herdr-go/herdr/protocol"

// Focus is the focus path: the focused workspace's id, its active tab's
// id and the focused pane's terminal id ("" where there is none). The
// focus events of a change are the difference between the path before it
// and after it.
type Focus struct{ WS, Tab, Pane string }

// Focus is the focus path now.
func (m *Model) Focus() Focus {
	var f Focus
	if w := m.Focused(); w != nil {
		f.WS = w.ID()
		if t := w.Active(); t != nil {
			f.Tab = t.ID()
		}
		if p := m.FocusedPane(); p != nil {
			f.Pane = p.TermID()
		}
	}
	return f
}

// FocusEvents are the events of the focus having moved from before to
// where it is now: workspace_focused, tab_focused and pane_focused, each
// for what changed and is there, stamped with its subject's fields.
func (m *Model) FocusEvents(env Env, before Focus) []Event {
	var out Out
	now := m.Focus()
	if now.WS != before.WS && now.WS != "" {
		out.emit(env, protocol.WorkspaceFocusedEvent{WorkspaceID: now.WS}, m.Focused())
	}
	if now.Tab != before.Tab && now.Tab != "" {
		t := m.Focused().Active()
		out.emit(env, protocol.TabRefEvent{Kind: "tab_focused", TabID: t.ID(), WorkspaceID: t.WS().ID()}, t)
	}
	if now.Pane != before.Pane && now.Pane != "" {
		p := m.FocusedPane()
		out.emit(env, protocol.PaneRefEvent{Kind: "pane_focused", PaneID: p.ID(), WorkspaceID: p.WS().ID()}, p)
	}
	return out.Events
}
