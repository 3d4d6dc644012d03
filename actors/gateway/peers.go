package gateway

import (
	"net"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The connection budget keeps room for the person. Of the connections the
// server serves at once (maxConns, fewer under a low open-file limit):
//
//   - one peer process (as the kernel names it: SO_PEERCRED,
//     LOCAL_PEERPID) holds at most a quarter; its next connection is
//     answered server_unavailable at once, naming the process. A looping
//     agent, or one herdr mcp fed thousands of waits, fills its own share,
//     never the server's;
//   - waits and streams (the Shape of events.wait, events.subscribe,
//     pane.wait_for_output, agent.wait, pane.graphics.stream …), which
//     hold their connection for as long as they last, take at most three
//     quarters together; the request past that is answered
//     server_unavailable and its connection stays open for short calls;
//   - so at least a quarter stays for short calls and the interactive
//     client (the CLI, hooks, a client's screens), whoever else waits.
//
// A peer the platform does not name (Windows' pipes, a process the kernel
// would not give) counts only against the shares of the whole.

// peerShare and longShare are the parts of the limit one peer process, and
// all waits and streams together, may hold.
func peerShare(limit int) int { return max(1, limit/4) }
func longShare(limit int) int { return max(1, limit*3/4) }

// peerBudget counts the connections each peer process holds. It is the
// gateway actor's own state: taken when a connection is accepted, given
// back when its conn actor terminates.
type peerBudget struct {
	share int
	held  map[protocol.Peer]int
	of    map[string]protocol.Peer // conn actor id → its peer
}

func newPeerBudget(limit int) peerBudget {
	return peerBudget{share: peerShare(limit), held: map[protocol.Peer]int{}, of: map[string]protocol.Peer{}}
}

// take counts one more connection of p, or reports that p holds its share.
func (b *peerBudget) take(p protocol.Peer) bool {
	if b.held[p] >= b.share {
		return false
	}
	b.held[p]++
	return true
}

// bind remembers which conn actor holds p's connection.
func (b *peerBudget) bind(id string, p protocol.Peer) { b.of[id] = p }

// put gives back one connection of p.
func (b *peerBudget) put(p protocol.Peer) {
	if b.held[p]--; b.held[p] <= 0 {
		delete(b.held, p)
	}
}

// ended gives back the connection of the conn actor id, if it was counted.
func (b *peerBudget) ended(id string) {
	if p, ok := b.of[id]; ok {
		delete(b.of, id)
		b.put(p)
	}
}

// countedPeer is the peer a connection is counted against: a known
// process only (a uid alone would put every client of the user in one
// share).
func countedPeer(peerOf func(net.Conn) (protocol.Peer, bool), c net.Conn) (protocol.Peer, bool) {
	p, ok := peerOf(c)
	return p, ok && p.PID > 0
}

func peerRefusal(p protocol.Peer, share int) *protocol.Error {
	return protocol.Errorf(protocol.CodeServerUnavailable,
		"server busy: this client process (pid %d) holds %d connections, the most one process may hold at once; end some of its waits or connections and retry", p.PID, share)
}

func totalRefusal(limit int) *protocol.Error {
	return protocol.Errorf(protocol.CodeServerUnavailable,
		"server busy: it serves at most %d connections at once; close one and retry", limit)
}

func longRefusal(limit int64) *protocol.Error {
	return protocol.Errorf(protocol.CodeServerUnavailable,
		"server busy: %d waits and streams are open, the most it holds at once (the rest of its connections stay for short calls and the interactive client); end a wait or subscription and retry", limit)
}

// holdsConn reports whether a call of this shape keeps its connection
// for as long as it lasts (a wait, a stream of events or frames).
func holdsConn(s protocol.Shape) bool {
	return s == protocol.ShapeWait || s == protocol.ShapeStream || s == protocol.ShapeFrames
}

// takeLong counts the conn's wait or stream against the long share, or
// reports that the share is full. A conn holds at most one at a time.
func (c *conn) takeLong() bool {
	if c.long || c.opts.longLimit <= 0 {
		return true
	}
	if c.opts.long.Add(1) > c.opts.longLimit {
		c.opts.long.Add(-1)
		return false
	}
	c.long = true
	return true
}

// dropLong gives the conn's wait or stream back to the long share.
func (c *conn) dropLong() {
	if c.long {
		c.long = false
		c.opts.long.Add(-1)
	}
}

// keepsConn reports whether an answer turned the connection into a stream
// for good (an accepted events.subscribe or pane.graphics.stream).
func keepsConn(shape protocol.Shape, r *kit.Reply) bool {
	if r.Err != nil {
		return false
	}
	switch shape {
	case protocol.ShapeStream:
		return true
	case protocol.ShapeFrames:
		_, ok := r.Result.(kit.GraphicsStream)
		return ok
	}
	return false
}
