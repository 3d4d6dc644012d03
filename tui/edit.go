package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// edit_scrollback (prefix e) asks the server for pane.edit_scrollback on
// the focused pane: it opens the pane's whole scrollback in $VISUAL or
// $EDITOR in a zoomed pane of its own, which closes when the editor ends
// (cli/edit_scrollback.go runs in it).
func (m *model) editScrollback() tea.Cmd {
	id := m.focusedPaneID()
	if id == "" {
		return nil
	}
	m.call("pane.edit_scrollback", protocol.PaneTarget{PaneID: id})
	return nil
}
