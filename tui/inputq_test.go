package tui

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// fakeInputHost is the client as the input queue sees it: the writes it
// asked for (answered later by the test), the size claims, the popup's
// terminal, and the toasts.
type fakeInputHost struct {
	writes []string
	done   []func(error)
	claims int
	popup  string
	toasts []string
}

func (h *fakeInputHost) claimSize(bool)        { h.claims++ }
func (h *fakeInputHost) popupTerminal() string { return h.popup }
func (h *fakeInputHost) sender() func(tea.Msg) { return nil }
func (h *fakeInputHost) sendThen(method string, params any, done func(error)) {
	text := ""
	switch p := params.(type) {
	case protocol.PaneSendTextParams:
		text = p.PaneID + "=" + p.Text
	case protocol.PopupSendTextParams:
		text = "popup=" + p.Text
	}
	h.writes = append(h.writes, method+" "+text)
	h.done = append(h.done, done)
}
func (h *fakeInputHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}

// The input queue on its own: a burst to a pane leaves as one write;
// what is typed while it is in flight waits and leaves as one more once
// it is answered; a write the pane refused as "not reading" goes back in
// front and is offered again; the popup's terminal gets popup.send_text;
// a terminal that went takes its queued input with it.
func TestInputQueue_OnItsOwn(t *testing.T) {
	h := &fakeInputHost{popup: "t1"}
	q := &inputQueue{inFlight: map[string]bool{}, host: h}
	q.add("p1", []byte("a"))
	q.add("p1", []byte("b"))
	q.add("t1", []byte("z"))
	q.flush()
	if len(h.writes) != 2 || h.writes[0] != "pane.send_text p1=ab" || h.writes[1] != "popup.send_text popup=z" || h.claims != 1 || q.waiting() {
		t.Fatalf("first flush: %q claims %d", h.writes, h.claims)
	}
	q.add("p1", []byte("c"))
	q.add("p1", []byte("d"))
	q.flush()
	if len(h.writes) != 2 || !q.waiting() {
		t.Fatalf("sent while in flight: %q", h.writes)
	}
	refused := &protocol.Error{Code: protocol.CodePaneSendFailed, Message: "program not reading"}
	if q.sent(sentMsg{paneID: "p1", b: []byte("ab"), err: refused}) == nil || !q.inFlight["p1"] {
		t.Fatal("a refused write is not held for a retry")
	}
	q.retry(retryMsg{paneID: "p1", b: []byte("ab")})
	q.flush()
	if len(h.writes) != 3 || h.writes[2] != "pane.send_text p1=abcd" {
		t.Fatalf("retry: %q", h.writes)
	}
	q.sent(sentMsg{paneID: "p1", err: errors.New("pane gone")})
	if len(h.toasts) != 1 || h.toasts[0] != "pane.send_text: pane gone" {
		t.Fatalf("toasts %q", h.toasts)
	}
	q.add("t1", []byte("late"))
	q.drop("t1")
	if q.waiting() {
		t.Fatalf("a closed terminal's input stayed: %+v", q.pending)
	}
}

// The answer to a pane's write is taken with no drain and no draw (it
// changes nothing shown, and a draw then held up the echo's frame that
// follows it), and input typed while the write was in flight goes at
// once; a refused write still goes the usual way (a drain, a toast).
func TestModel_WriteAnsweredDrawsNothing(t *testing.T) {
	m := newModel(&link{}, defaultKeymap(), false)
	term := &fakeTerm{}
	m.term = term
	m.width, m.height = 120, 36
	h := &fakeInputHost{}
	m.input.host = h
	m.input.inFlight["p1"] = true
	m.input.add("p1", []byte("x"))
	if _, cmd := m.Update(sentMsg{paneID: "p1", b: []byte("a")}); cmd != nil {
		t.Fatal("the answer to a write asked for a command (a drain)")
	}
	if len(term.drawn) != 0 {
		t.Fatalf("the answer to a write drew %q", term.drawn)
	}
	if len(h.writes) != 1 || h.writes[0] != "pane.send_text p1=x" {
		t.Fatalf("input typed while the write was in flight: %q, want it sent at once", h.writes)
	}
	if _, cmd := m.Update(sentMsg{paneID: "p1", err: errors.New("pane gone")}); cmd == nil || len(h.toasts) != 1 {
		t.Fatalf("a failed write: toasts %q, want one and a drain to show it", h.toasts)
	}
}

// A key typed into the focused pane goes out at once and, with nothing on
// screen that typing puts away, asks for no drain and draws nothing (the
// echo's frame draws); with a mouse selection shown, the key ends it and
// a drain draws that.
func TestModel_KeyIntoThePaneDrawsNothing(t *testing.T) {
	m := newModel(&link{}, defaultKeymap(), false)
	term := &fakeTerm{}
	m.term = term
	m.width, m.height = 120, 36
	m.snap, m.haveSnap = twoPanes(), true
	h := &fakeInputHost{}
	m.input.host = h
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"}); cmd != nil {
		t.Fatal("a key into the pane asked for a command (a drain)")
	}
	if len(term.drawn) != 0 {
		t.Fatalf("a key into the pane drew %q", term.drawn)
	}
	if len(h.writes) != 1 || h.writes[0] != "pane.send_text w1:p2=a" {
		t.Fatalf("writes %q, want the key sent at once", h.writes)
	}
	m.msel.sel = &mouseSel{paneID: "w1:p2"}
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'b', Text: "b"}); cmd == nil || m.msel.sel != nil {
		t.Fatalf("a key with a selection shown: selection %v, drain asked %v; want it ended and drawn", m.msel.sel, cmd != nil)
	}
}
