package pane

import (
	"slices"
	"sync"
)

// turnBytes is the most output a pane applies in one turn: about half a
// millisecond of parsing, so a flooding pane holds a core only briefly.
const turnBytes = 64 << 10

// A gate (one per Runtime) lets at most GOMAXPROCS-1 goroutines (at least
// one) do pane output work at the same time: a pane applying output, or a
// reader reading for a pane that is behind (readturn.go), in turns taken
// first come, first served. However many panes flood, a core stays free
// for requests, events and the client, and runs out of work often enough
// to poll the network: without it, 100 flooding panes kept a ping waiting
// half a second behind the scheduler's queue of parsers. One pane's
// throughput is about unchanged (an actor parses on one core anyway, and
// a read is short beside the parse); panes flooding together share their
// cores.

// gate hands out a fixed number of turns. The mutex guards only the gate's
// queue (a scheduler shared by pane actors and readers, not model state);
// grants reach an actor as a message, so no actor ever blocks on it (a
// reader, a goroutine of its own, waits on its channel).
type gate struct {
	mu    sync.Mutex
	free  int
	queue []*ticket
}

// ticket is one pane's claim on a turn.
type ticket struct {
	grant   func() // tells the pane its turn has come
	granted bool
}

func newGate(n int) *gate { return &gate{free: n} }

// enter takes a turn now and reports true, or queues t and reports false:
// t.grant is then called when the turn comes.
func (g *gate) enter(t *ticket) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	t.granted = false
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		return true
	}
	g.queue = append(g.queue, t)
	return false
}

// enterRead is enter for a reader: with others queued it queues t and
// reports true (t.grant is called when the turn comes); with no one
// queued the reader needs no turn: the pane floods alone, or with fewer
// than there are turns, and reads beside its own parse (one pane's read
// and parse overlap, as before there were turns).
func (g *gate) enterRead(t *ticket) (queued bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		return false
	}
	t.granted = false
	g.queue = append(g.queue, t)
	return true
}

// leave ends a turn, handing it to the first in the queue.
func (g *gate) leave() {
	g.mu.Lock()
	if len(g.queue) == 0 {
		g.free++
		g.mu.Unlock()
		return
	}
	next := g.queue[0]
	g.queue = g.queue[1:]
	next.granted = true
	g.mu.Unlock()
	next.grant()
}

// cancel withdraws a queued ticket; a turn already granted to it (its
// message not yet received) is passed on.
func (g *gate) cancel(t *ticket) {
	g.mu.Lock()
	if i := slices.Index(g.queue, t); i >= 0 {
		g.queue = slices.Delete(g.queue, i, i+1)
		g.mu.Unlock()
		return
	}
	granted := t.granted
	g.mu.Unlock()
	if granted {
		g.leave()
	}
}
