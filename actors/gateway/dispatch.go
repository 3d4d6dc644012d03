package gateway

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/api"
)

// connDispatcher runs a conn actor's mailbox. When the conn's reader
// hands it request lines and the mailbox is idle, the reader's own
// goroutine runs it: the request is decoded, answered and (when the
// socket takes it) written without waking a second goroutine, which was
// the largest share of a ping on one connection. Everything else (answers
// from owners, frames, timers, the system messages) runs on the worker,
// as before. The mailbox still runs on one goroutine at a time, and a
// conn's Receive never blocks, so the reader only pauses reading while
// the actor works.
type connDispatcher struct {
	*api.Worker
	// readerPosting is set while the reader posts: the Schedule its post
	// makes runs inline. (Should another sender's post win the mailbox in
	// that instant, that sender runs it instead: the same work, on a
	// goroutine that is not blocked on anything either.)
	readerPosting atomic.Bool
}

// Schedule implements actor.Dispatcher.
func (d *connDispatcher) Schedule(fn func()) {
	if d.readerPosting.CompareAndSwap(true, false) {
		fn()
		return
	}
	d.Worker.Schedule(fn)
}
