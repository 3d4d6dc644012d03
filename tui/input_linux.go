package tui

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
)

// polledInput is the terminal, opened again, as Bubble Tea reads it: a
// file of its own (its own open file description, so the non-blocking
// mode Go's poller needs stays off the descriptor the shell shares) whose
// reads wait on Go's network poller. A key then wakes no thread of its
// own: the poller's thread reads it and runs Bubble Tea's loop, which
// writes the key to the server, on that same thread. (Bubble Tea's own
// reader waits in an epoll of its own, holding a thread, and handed each
// key to another: a cold wake of a second thread at a typist's pace.)
// It is not a cancelreader.File, so Bubble Tea reads it as a plain
// reader; stop ends a read still waiting when the program has ended, so
// the next program (a session switch) is the only reader. in is
// returned as it is when it is not a terminal, or cannot be opened again.
func polledInput(in io.Reader) (r io.Reader, stop func()) {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return in, func() {}
	}
	again, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return in, func() {}
	}
	if sameTerminal(f, again) && again.SetReadDeadline(time.Time{}) == nil { // on Go's poller
		return polled{again}, func() { again.Close() }
	}
	again.Close()
	return in, func() {}
}

// polled hides the file's Fd, so Bubble Tea does not wait on it in an
// epoll of its own.
type polled struct{ f *os.File }

func (p polled) Read(b []byte) (int, error) { return p.f.Read(b) }

// sameTerminal reports whether a and b are the same device. (Not by
// their Fd: that puts a file back in blocking mode.)
func sameTerminal(a, b *os.File) bool {
	ia, erra := a.Stat()
	ib, errb := b.Stat()
	if erra != nil || errb != nil {
		return false
	}
	sa, oka := ia.Sys().(*syscall.Stat_t)
	sb, okb := ib.Sys().(*syscall.Stat_t)
	return oka && okb && sa.Rdev == sb.Rdev
}
