package tui

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// When the server connection drops, the client tells three cases apart:
//
//   - The server was stopped (server stop, session stop, a signal): it
//     says so to its interactive clients before it closes
//     (client.server_stopping), and the client exits at once.
//   - A live handoff: the old server ends every connection with
//     server_unavailable, and the new one already holds the socket. The
//     client reconnects by itself for up to reconnectFor: the new server
//     has the same socket, ids and panes, so the client only resubscribes
//     and reads a fresh snapshot.
//   - Anything else (a crash): the client reconnects while the socket
//     still accepts, and exits as soon as nothing listens on it.

// reconnectFor is how long a server that is handing over, or whose
// socket accepts, is looked for.
const reconnectFor = 10 * time.Second

// noticeWait bounds the wait, once one connection has ended, for the
// others to end too: a stopping server's notice on the screen connection
// is read before the loss is judged.
const noticeWait = time.Second

// serverStoppingEvent is the push a stopping server sends its interactive
// clients before it closes their connections.
const serverStoppingEvent = "client.server_stopping"

// ErrServerStopped and ErrServerGone are returned by Run when the server
// went away: it said it was stopping, or nothing listens on its socket.
var (
	ErrServerStopped = errors.New("the herdr server stopped")
	ErrServerGone    = errors.New("the herdr server exited")
)

// reconnectedMsg carries the new connections; failedMsg says there are
// none; goneMsg says the server is not coming back.
type (
	reconnectedMsg struct {
		req     requester
		ev, scr *rpcConn
	}
	reconnectFailedMsg struct{}
	serverGoneMsg      struct{ stopped bool }
)

// reconnect judges a loss and looks for the server again, once per loss.
// Like the connections, reconnecting is the model goroutine's.
func (l *link) reconnect() tea.Cmd {
	if l.reconnecting {
		return nil
	}
	l.reconnecting = true
	lost := l.conns()
	return func() tea.Msg { // the new connections go to the model in a message: it owns l's fields
		deadline := time.Now().Add(noticeWait)
		for _, c := range lost {
			select {
			case <-c.ended():
			case <-time.After(time.Until(deadline)):
			}
		}
		handedOver := false
		for _, c := range lost {
			handedOver = handedOver || c.handedOff()
			c.close()
		}
		if l.stopping.Load() {
			return serverGoneMsg{stopped: true}
		}
		deadline = time.Now().Add(reconnectFor)
		for time.Now().Before(deadline) {
			req, err := l.dial(nil)
			if err == nil {
				if ev, scr, err := l.dialStreams(req); err == nil {
					return reconnectedMsg{req: req, ev: ev, scr: scr}
				}
				req.close()
			} else if !handedOver && protocol.IsNotRunning(err) {
				return serverGoneMsg{} // nobody listens, and no handoff was announced
			}
			if l.stopping.Load() { // a server that took the connections and stopped after all
				return serverGoneMsg{stopped: true}
			}
			time.Sleep(50 * time.Millisecond)
		}
		return reconnectFailedMsg{}
	}
}

// reconnected takes the new connections.
func (l *link) reconnected(msg reconnectedMsg) {
	l.req, l.ev, l.scr = msg.req, msg.ev, msg.scr
	l.reconnecting = false
}
