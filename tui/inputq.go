package tui

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// paneInput is bytes on their way to a pane.
type paneInput struct {
	paneID string
	b      []byte
}

// inputQueue is what keys (and the mouse, for programs that asked for it)
// produced and is not sent yet, by pane, in order: a component of its
// own. A pane has at most one write in flight (inFlight); what is typed
// meanwhile waits here and leaves as one write when it is answered.
type inputQueue struct {
	pending  []paneInput
	inFlight map[string]bool
	host     inputHost
}

// inputHost is what the input queue needs of the client around it.
type inputHost interface {
	// claimSize tells the server this client's size again if it has been
	// idle (typing takes the size back).
	claimSize(force bool)
	// popupTerminal is the open popup's terminal ("" when none): its
	// input goes through popup.send_text.
	popupTerminal() string
	// sendThen makes a request and hands its answer to done, on the
	// request connection's goroutine.
	sendThen(method string, params any, done func(error))
	// sender delivers a message to the program from any goroutine.
	sender() func(tea.Msg)
	toast(text string) tea.Cmd
}

// waiting says whether input waits to be sent.
func (q *inputQueue) waiting() bool { return len(q.pending) > 0 }

// add queues input for a pane; it is sent with the rest of the burst when
// the program drains (flush).
func (q *inputQueue) add(paneID string, b []byte) {
	for i := range q.pending {
		if q.pending[i].paneID == paneID {
			q.pending[i].b = append(q.pending[i].b, b...)
			return
		}
	}
	q.pending = append(q.pending, paneInput{paneID: paneID, b: append([]byte(nil), b...)})
}

// drop forgets input queued for a terminal that is gone.
func (q *inputQueue) drop(id string) {
	kept := q.pending[:0]
	for _, in := range q.pending {
		if in.paneID != id {
			kept = append(kept, in)
		}
	}
	clear(q.pending[len(kept):])
	q.pending = kept
}

// flush sends what keys produced: one pane.send_text per pane and burst,
// however many keys it held, and none to a pane whose last write is not
// answered yet.
func (q *inputQueue) flush() {
	if len(q.pending) == 0 {
		return
	}
	q.host.claimSize(false)
	kept := q.pending[:0]
	popup := q.host.popupTerminal()
	for _, in := range q.pending {
		if q.inFlight[in.paneID] {
			kept = append(kept, in)
			continue
		}
		q.inFlight[in.paneID] = true
		id, b, send := in.paneID, in.b, q.host.sender()
		method, params := "pane.send_text", any(protocol.PaneSendTextParams{PaneID: id, Text: string(b)})
		if popup != "" && id == popup {
			method, params = "popup.send_text", protocol.PopupSendTextParams{Text: string(b)}
		}
		q.host.sendThen(method, params, func(err error) {
			if send != nil {
				send(sentMsg{paneID: id, b: b, err: err})
			}
		})
	}
	clear(q.pending[len(kept):])
	q.pending = kept
}

// retryInput is how long input refused by a pane whose program reads
// slowly waits before it is offered again.
const retryInput = 20 * time.Millisecond

// sent takes the answer to a write: the next one may go. Input the pane
// refused because its program has not read what it was sent yet goes back
// in front of what was typed since, and is offered again shortly; nothing
// typed is dropped while the pane lives.
func (q *inputQueue) sent(msg sentMsg) tea.Cmd {
	delete(q.inFlight, msg.paneID)
	var pe *protocol.Error
	if errors.As(msg.err, &pe) && pe.Code == protocol.CodePaneSendFailed && strings.Contains(pe.Message, "not reading") {
		q.inFlight[msg.paneID] = true // held until the retry
		return tea.Tick(retryInput, func(time.Time) tea.Msg { return retryMsg{paneID: msg.paneID, b: msg.b} })
	}
	if errors.As(msg.err, &pe) && pe.Code == protocol.CodePopupNotOpen {
		return nil // typed as the popup closed
	}
	if msg.err != nil {
		return q.host.toast("pane.send_text: " + msg.err.Error())
	}
	return nil
}

// retry puts refused input back in front of the pane's queue.
func (q *inputQueue) retry(msg retryMsg) {
	delete(q.inFlight, msg.paneID)
	for i := range q.pending {
		if q.pending[i].paneID == msg.paneID {
			q.pending[i].b = append(msg.b, q.pending[i].b...)
			return
		}
	}
	q.pending = append([]paneInput{{paneID: msg.paneID, b: msg.b}}, q.pending...)
}
