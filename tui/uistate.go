package tui

import (
	"maps"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The sidebar state the session keeps in session.json for every client
// (client.ui_state.*): the folded worktree groups, the section split and
// the sidebar's width. The client asks for it when it attaches (and after
// a reconnect) and tells the session when the person folds or unfolds a
// group, sets the width on the settings screen, or ends a drag of the
// agents header or of the sidebar's border (sections.go).

// uiStateMsg is the session's sidebar state as asked at attach.
type uiStateMsg struct {
	st  protocol.ClientUIState
	err error
}

// fetchUIState asks for the session's sidebar state.
func (l *link) fetchUIState() tea.Cmd {
	req := l.req
	return func() tea.Msg {
		var st protocol.ClientUIState
		err := req.call("client.ui_state.get", nil, &st)
		return uiStateMsg{st: st, err: err}
	}
}

// takeUIState takes the session's folded groups and section split.
func (sb *sidebar) takeUIState(st protocol.ClientUIState) {
	sb.collapsed = map[string]bool{}
	for _, k := range st.CollapsedSpaceKeys {
		sb.collapsed[k] = true
	}
	sb.split = 0
	if s := st.SidebarSectionSplit; s != nil {
		sb.split = *s
	}
}

// toggleGroup folds or unfolds a worktree group and tells the session.
func (sb *sidebar) toggleGroup(key string) {
	if sb.collapsed == nil {
		sb.collapsed = map[string]bool{}
	}
	if sb.collapsed[key] {
		delete(sb.collapsed, key)
	} else {
		sb.collapsed[key] = true
	}
	keys := append([]string{}, slices.Sorted(maps.Keys(sb.collapsed))...) // [] when none: null would set nothing
	sb.h.send("client.ui_state.set", protocol.ClientUIStateSetParams{CollapsedSpaceKeys: &keys})
}

// keepWidth tells the session the sidebar's width.
func (sb *sidebar) keepWidth(width int) {
	sb.h.send("client.ui_state.set", protocol.ClientUIStateSetParams{SidebarWidth: &width})
}
