package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// toastLine is the message the tab bar shows for toastTime. Its numbers
// are shared with the corner toasts (notify.go), so that an expiry names
// the one message it is for.
type toastLine struct {
	text string
	seq  int
}

// next numbers a new message.
func (t *toastLine) next() int {
	t.seq++
	return t.seq
}

// show puts text up and asks for its expiry.
func (t *toastLine) show(text string) tea.Cmd {
	seq := t.next()
	t.text = protocol.Printable(text) // error messages echo what callers sent
	return tea.Tick(toastTime, func(time.Time) tea.Msg { return toastExpired{seq: seq} })
}

// expire hides the message the expiry is for, and no later one.
func (t *toastLine) expire(msg toastExpired) {
	if msg.seq == t.seq {
		t.text = ""
	}
}
