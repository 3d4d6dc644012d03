package gateway

import (
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/kit"
)

// connDispatcher runs a conn actor's mailbox. What the conn's own
// goroutines post while its mailbox is idle runs on the poster: the
// reader's request lines (decoded, answered and, when the socket takes
// it, written without waking a second goroutine, which was the largest
// share of a ping on one connection) and its end of input, and the
// Started the gateway posts as it spawns the conn. Everything else
// (answers from owners, frames, timers) runs on a worker goroutine,
// started the first time one is needed, so a connection that asks one
// ping and leaves costs its reader and nothing more. The mailbox still
// runs on one goroutine at a time, and a conn's Receive never blocks, so
// a reader only pauses reading while the actor works.
type connDispatcher struct {
	// inline is set while a poster that may run the mailbox posts: the
	// Schedule its post makes runs inline. (Should another sender's post
	// win the mailbox in that instant, that sender runs it instead: the
	// same work, on a goroutine that is not blocked on anything either.)
	inline atomic.Bool
	// worker and stopped are only touched by Schedule and stop, which
	// the mailbox orders (one schedule at a time, stop inside a run).
	worker  *kit.Worker
	stopped bool
}

// Schedule implements actor.Dispatcher.
func (d *connDispatcher) Schedule(fn func()) {
	switch {
	case d.inline.CompareAndSwap(true, false):
		fn()
	case d.stopped:
		go fn() // a last system message after the actor stopped
	default:
		if d.worker == nil {
			d.worker = kit.NewWorker()
		}
		d.worker.Schedule(fn)
	}
}

// Throughput implements actor.Dispatcher: messages per run before the
// mailbox lets others go.
func (d *connDispatcher) Throughput() int { return 300 }

// post runs send (a post to the conn) with the conn's mailbox run inline
// if it is idle.
func (d *connDispatcher) post(send func()) {
	if d == nil { // a conn spawned bare by a test
		send()
		return
	}
	d.inline.Store(true)
	send()
	d.inline.Store(false)
}

// stop ends the worker, if one was started, once the actor has stopped
// (its Stopped message is the last it handles).
func (d *connDispatcher) stop() {
	if d == nil {
		return
	}
	d.stopped = true
	if d.worker != nil {
		d.worker.Stop()
	}
}
