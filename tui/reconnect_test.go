package tui

import (
	"path/filepath"
	"testing"
)

// The link's reconnect on its own (no model): once per loss; a socket
// nobody listens on, with no handoff announced, is a server gone; a
// server that said it is stopping is a server stopped; new connections
// end the reconnect.
func TestLink_ReconnectOnItsOwn(t *testing.T) {
	l := &link{socket: filepath.Join(t.TempDir(), "none.sock")}
	cmd := l.reconnect()
	if cmd == nil || !l.reconnecting {
		t.Fatal("a loss should start one reconnect")
	}
	if l.reconnect() != nil {
		t.Error("a second loss while reconnecting should start nothing")
	}
	if msg, ok := cmd().(serverGoneMsg); !ok || msg.stopped {
		t.Fatalf("nothing listens: %#v, want a server gone (not stopped)", msg)
	}
	l.reconnected(reconnectedMsg{})
	if l.reconnecting {
		t.Fatal("new connections end the reconnect")
	}
	l.stopping.Store(true)
	if msg, ok := l.reconnect()().(serverGoneMsg); !ok || !msg.stopped {
		t.Fatalf("a stopping server: %#v, want stopped", msg)
	}

}
