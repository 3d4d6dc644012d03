package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// When the server connection drops (a live handoff to a new server, a
// restart), the client reconnects by itself for reconnectFor before it
// gives up: the new server has the same socket, ids and panes, so the
// client only resubscribes and reads a fresh snapshot.

// reconnectFor is how long a lost server is looked for.
const reconnectFor = 10 * time.Second

// reconnectedMsg carries the new connections; failedMsg says there are none.
type (
	reconnectedMsg     struct{ req, ev, scr *rpcConn }
	reconnectFailedMsg struct{}
)

// reconnect starts looking for the server again, once per loss.
func (m *model) reconnect() tea.Cmd {
	if m.reconnecting {
		return nil
	}
	m.reconnecting = true
	l := m.link
	l.close()
	return func() tea.Msg { // the new connections go to the model in a message: it owns l's fields
		deadline := time.Now().Add(reconnectFor)
		for time.Now().Before(deadline) {
			if req, err := l.dial(nil); err == nil {
				if ev, scr, err := l.dialStreams(req); err == nil {
					return reconnectedMsg{req: req, ev: ev, scr: scr}
				}
				req.close()
			}
			time.Sleep(50 * time.Millisecond)
		}
		return reconnectFailedMsg{}
	}
}

// reconnected starts over on the new connections: every visible pane is
// subscribed again (its first frames are whole) from a fresh snapshot.
func (m *model) reconnected(msg reconnectedMsg) tea.Cmd {
	m.link.req, m.link.ev, m.link.scr = msg.req, msg.ev, msg.scr
	m.reconnecting = false
	m.watched = nil
	clear(m.screens)
	m.dropGraphics(nil) // the new subscription sends every image again
	m.refreshing = true
	return tea.Batch(m.fetchSnapshot(), m.fetchUIState())
}
