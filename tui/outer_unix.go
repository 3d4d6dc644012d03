//go:build !windows

package tui

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"
)

// cellPixels is the size of the terminal's cells in pixels, from the
// window size the terminal reports (0, 0 when it reports none).
func cellPixels(out io.Writer) (w, h int) {
	f, ok := out.(term.File)
	if !ok {
		return 0, 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 0, 0
	}
	return int(ws.Xpixel) / int(ws.Col), int(ws.Ypixel) / int(ws.Row)
}

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
