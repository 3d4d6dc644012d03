//go:build !windows

package tui

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// enableVT is a no-op: Unix terminals take escape sequences as they are.
func enableVT(uintptr) *term.State { return nil }

// watchSize sends the terminal's size now and after every SIGWINCH until
// stop is closed.
func watchSize(out io.Writer, send func(tea.Msg), stop chan struct{}) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	go func() {
		defer signal.Stop(sig)
		for {
			w, h := outerSize(out)
			send(tea.WindowSizeMsg{Width: w, Height: h})
			select {
			case <-stop:
				return
			case <-sig:
			}
		}
	}()
}
