package pane

import "sync"

// maxPending bounds the output held between the PTY and the emulator; past
// it the reader stops reading, so a flooding program waits on its PTY
// instead of growing server memory.
const maxPending = 4 << 20

// inbox hands PTY output from the reader goroutine to the actor. The mutex
// guards only this byte buffer (an I/O queue, not model state): the reader
// appends, the actor swaps the whole batch out.
type inbox struct {
	mu      sync.Mutex
	drained *sync.Cond
	buf     []byte
	spare   []byte
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
	for len(in.buf) >= maxPending && !in.closed {
		in.drained.Wait()
	}
	in.buf = append(in.buf, data...)
	if in.rung {
		return false
	}
	in.rung = true
	return true
}

// take returns the pending batch. The slice is valid until the next take.
func (in *inbox) take() []byte {
	in.mu.Lock()
	defer in.mu.Unlock()
	batch := in.buf
	in.buf = in.spare[:0]
	in.spare = batch
	in.rung = false
	in.drained.Broadcast()
	return batch
}

// close releases a reader blocked in put.
func (in *inbox) close() {
	in.mu.Lock()
	in.closed = true
	in.drained.Broadcast()
	in.mu.Unlock()
}
