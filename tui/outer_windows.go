//go:build windows

package tui

import (
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/windows"
)

// enableVT turns on escape-sequence processing of the console output and
// returns its previous state.
func enableVT(fd uintptr) *term.State {
	st, err := term.GetState(fd)
	if err != nil {
		return nil
	}
	var mode uint32
	if windows.GetConsoleMode(windows.Handle(fd), &mode) == nil {
		_ = windows.SetConsoleMode(windows.Handle(fd), mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING|windows.DISABLE_NEWLINE_AUTO_RETURN)
	}
	return st
}

// watchSize sends the console's size now; later changes come from Bubble
// Tea's console input reader as window-size records.
func watchSize(out io.Writer, send func(tea.Msg), stop chan struct{}) {
	w, h := outerSize(out)
	go send(tea.WindowSizeMsg{Width: w, Height: h})
}

// cellPixels is unknown on a Windows console: it reports no pixel size.
func cellPixels(io.Writer) (w, h int) { return 0, 0 }
