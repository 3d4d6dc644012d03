package pane

import "sync"

const (
	// maxPending bounds the output held between the PTY and the emulator;
	// past it the reader stops reading, so a flooding program waits on its
	// PTY instead of growing server memory.
	maxPending = 4 << 20
	// blockSize is the unit the inbox stores output in: fixed blocks are
	// recycled, never grown, so a flood costs one copy per byte.
	blockSize = 64 << 10
	// keepFree is how many spare blocks a pane keeps between bursts.
	keepFree = 4
)

// inbox hands PTY output from the reader goroutine to the actor. The mutex
// guards only this queue of byte blocks (an I/O queue, not model state):
// the reader appends, the actor takes whole blocks.
type inbox struct {
	mu      sync.Mutex
	drained *sync.Cond
	blocks  [][]byte // pending output, oldest first
	pending int      // bytes in blocks
	taken   [][]byte // what the last take handed out, recycled at the next
	free    [][]byte
	rung    bool
	closed  bool
}

func newInbox() *inbox {
	in := &inbox{}
	in.drained = sync.NewCond(&in.mu)
	return in
}

// put appends data and reports whether the actor must be rung (it was not
// already). It blocks while the backlog is over maxPending.
func (in *inbox) put(data []byte) (ring bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for in.pending >= maxPending && !in.closed {
		in.drained.Wait()
	}
	in.pending += len(data)
	for len(data) > 0 {
		n := len(in.blocks)
		if n == 0 || len(in.blocks[n-1]) == cap(in.blocks[n-1]) {
			in.blocks = append(in.blocks, in.newBlock())
			n++
		}
		tail := in.blocks[n-1]
		k := copy(tail[len(tail):cap(tail)], data)
		in.blocks[n-1] = tail[:len(tail)+k]
		data = data[k:]
	}
	if in.rung {
		return false
	}
	in.rung = true
	return true
}

func (in *inbox) newBlock() []byte {
	if n := len(in.free); n > 0 {
		b := in.free[n-1]
		in.free = in.free[:n-1]
		return b[:0]
	}
	return make([]byte, 0, blockSize)
}

// take returns whole pending blocks, at least one and about limit bytes,
// and whether more are pending (the actor then comes back for them: the
// reader does not ring again). The blocks are valid until the next take.
func (in *inbox) take(limit int) (batch [][]byte, more bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	// Keep a few blocks for the next burst; a flood's worth goes back to
	// the collector, so an idle pane holds little.
	for _, b := range in.taken {
		if len(in.free) < keepFree {
			in.free = append(in.free, b)
		}
	}
	n, size := 0, 0
	for n < len(in.blocks) && (n == 0 || size+len(in.blocks[n]) <= limit) {
		size += len(in.blocks[n])
		n++
	}
	// Handed-out blocks leave the queue, so the reader never appends to
	// one the actor is reading.
	in.taken = append(in.taken[:0], in.blocks[:n]...)
	in.blocks = append(in.blocks[:0], in.blocks[n:]...)
	in.pending -= size
	if len(in.blocks) == 0 {
		in.rung = false
	}
	in.drained.Broadcast()
	return in.taken, in.rung
}

// close releases a reader blocked in put.
func (in *inbox) close() {
	in.mu.Lock()
	in.closed = true
	in.drained.Broadcast()
	in.mu.Unlock()
}
