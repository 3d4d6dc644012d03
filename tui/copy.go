package tui

import tea "github.com/charmbracelet/bubbletea"

func (m *model) enterCopy() tea.Cmd { return nil }

func (m *model) copyKey(k tea.KeyMsg) tea.Cmd {
	m.mode = modeTerminal
	return nil
}

func (m *model) copyStatus() string { return " COPY " }
