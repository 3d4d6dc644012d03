package pane

import "sync"

const (
	// maxPending bounds the output held between the PTY and the emulator;
	// past it the reader stops reading, so a flooding program waits on its
	// PTY instead of growing server memory.
	maxPending = 512 << 10
	// blockSize is the unit output is read and queued in.
	blockSize = 64 << 10
)

// blocks recycles output blocks across every pane: the reader reads
// straight into one, so a flood costs no copy, and a steady flood touches
// no fresh memory (fresh pages fault, and that showed as a third of the
// CPU of 100 flooding panes). It is the one package-level variable left:
// a sync.Pool is safe for any goroutine, holds nothing a pane or server
// could observe (any block is as good as another), and one pool for the
// process recycles best, whichever runtime's pane read the block.
var blocks = sync.Pool{New: func() any { b := make([]byte, 0, blockSize); return &b }}

func getBlock() []byte { return (*blocks.Get().(*[]byte))[:0] }

func putBlock(b []byte) {
	if cap(b) == blockSize {
		blocks.Put(&b)
	}
}

// inbox hands PTY output from the reader goroutine to the actor. The mutex
// guards only this queue of byte blocks (an I/O queue, not model state):
// the reader pushes, the actor takes whole blocks.
type inbox struct {
	mu sync.Mutex
	// drained wakes a reader waiting for room (push); made by the first
	// such wait, which an idle pane never has.
	drained *sync.Cond
	queue   [][]byte // pending output, oldest first
	pending int      // bytes in queue
	taken   [][]byte // what the last take handed out, recycled at the next
	rung    bool
	closed  bool
	// parked says the poller stopped reading the terminal for room
	// (parkIfFull); onRoom, the poller's, rearms it once take makes room.
	parked bool
	onRoom func()
	// gate is the runtime's, whose turns the reader reads in while the
	// pane is behind (readturn.go; nil: never waits): turn is its claim,
	// granted says a queued claim's turn has come, leaveTurn gives the
	// turn back (made once, at the first read turn, so a read allocates
	// no closure: turnChans).
	// ended is closed by close: a reader waiting for a turn then reads
	// without one (it holds the terminal's descriptor, which the pane's
	// stop is about to close, and a close waits for it).
	gate      *gate
	turn      ticket
	granted   chan struct{}
	ended     chan struct{}
	leaveTurn func()
}

func newInbox(g *gate) *inbox { return &inbox{gate: g} }

// turnChans makes what a read turn waits with, at the first one: a pane
// that never falls behind under contention (an idle one) has none.
func (in *inbox) turnChans() (granted, ended chan struct{}) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.granted == nil {
		in.granted, in.ended = make(chan struct{}, 1), make(chan struct{})
		granted := in.granted
		in.turn.grant = func() { granted <- struct{}{} }
		in.leaveTurn = in.gate.leave
		if in.closed {
			close(in.ended)
		}
	}
	return in.granted, in.ended
}

// push queues a block read by the reader (the inbox owns it from then on)
// and reports whether the actor must be rung (it was not already). A small
// block joins the last one when it fits, so keystroke echoes do not hold a
// block each. It never waits: the poller reads no more while the backlog
// is over maxPending (parkIfFull), a reader of its own waits (waitRoom).
func (in *inbox) push(b []byte) (ring bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.pending += len(b)
	if n := len(in.queue); n > 0 && len(in.queue[n-1])+len(b) <= cap(in.queue[n-1]) {
		in.queue[n-1] = append(in.queue[n-1], b...)
		putBlock(b)
	} else {
		in.queue = append(in.queue, b)
	}
	if in.rung {
		return false
	}
	in.rung = true
	return true
}

// take returns whole pending blocks, at least one and about limit bytes,
// and whether more are pending (the actor then comes back for them: the
// reader does not ring again). The blocks are valid until release or the
// next take.
func (in *inbox) take(limit int) (batch [][]byte, more bool) {
	in.mu.Lock()
	in.recycle()
	n, size := 0, 0
	for n < len(in.queue) && (n == 0 || size+len(in.queue[n]) <= limit) {
		size += len(in.queue[n])
		n++
	}
	// Handed-out blocks leave the queue, so the reader never appends to
	// one the actor is reading.
	in.taken = append(in.taken[:0], in.queue[:n]...)
	// The slots the queue leaves behind are cleared: a block they still
	// pointed to (put back in the pool, or handed to another pane) would
	// stay alive as long as this pane, whatever the pool let go.
	rest := copy(in.queue, in.queue[n:])
	clear(in.queue[rest:])
	in.queue = in.queue[:rest]
	in.pending -= size
	if len(in.queue) == 0 {
		in.rung = false
	}
	in.wakeReader()
	room := in.parked && in.pending < maxPending && in.onRoom != nil
	if room {
		in.parked = false
	}
	batch, more = in.taken, in.rung
	in.mu.Unlock()
	if room {
		in.onRoom() // not under the lock: the poller's comes before it
	}
	return batch, more
}

// waitRoom waits while the backlog is over maxPending (a reader of its own).
func (in *inbox) waitRoom() {
	in.mu.Lock()
	defer in.mu.Unlock()
	for in.pending >= maxPending && !in.closed {
		if in.drained == nil {
			in.drained = sync.NewCond(&in.mu)
		}
		in.drained.Wait()
	}
}

// release hands the blocks of the last take back to the pool once they
// are applied, so that a pane gone quiet keeps no block of its own.
func (in *inbox) release() {
	in.mu.Lock()
	in.recycle()
	in.mu.Unlock()
}

func (in *inbox) recycle() {
	for i, b := range in.taken {
		putBlock(b)
		in.taken[i] = nil
	}
	in.taken = in.taken[:0]
}

// wakeReader wakes a reader of its own waiting for room (waitRoom).
func (in *inbox) wakeReader() {
	if in.drained != nil {
		in.drained.Broadcast()
	}
}

// close releases a reader blocked in push.
func (in *inbox) close() {
	in.mu.Lock()
	if !in.closed && in.ended != nil {
		close(in.ended)
	}
	in.closed = true
	in.wakeReader()
	in.mu.Unlock()
}

// isClosed reports whether close was called: the pane has stopped.
func (in *inbox) isClosed() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.closed
}

// behind reports whether output read before is still waiting for the
// actor.
func (in *inbox) behind() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.pending > 0
}
