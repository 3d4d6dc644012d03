package kit

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// Inline is a dispatcher whose mailbox a poster may run on its own
// goroutine while the mailbox is idle (Post): a keystroke's call from a
// connection to its pane, and the pane's frame to the screen connection,
// each wake no goroutine for the actor that takes them (at a typist's pace
// every such wake-up starts cold). Any other schedule goes to Next. The
// mailbox still runs on one goroutine at a time, and a poster only posts
// from a Receive that does not block, or from a goroutine of its own, so
// running the mailbox there holds nothing up that waits on another.
type Inline struct {
	// inline is set while a poster that may run the mailbox posts: the
	// Schedule its post makes runs inline. (Should another sender's post
	// win the mailbox in that instant, that sender runs it instead: the
	// same work, on a goroutine that is not blocked on anything either.)
	inline atomic.Bool
	Next   actor.Dispatcher
}

// Schedule implements actor.Dispatcher.
func (d *Inline) Schedule(fn func()) {
	if d.inline.CompareAndSwap(true, false) {
		fn()
		return
	}
	d.Next.Schedule(fn)
}

// Throughput implements actor.Dispatcher.
func (d *Inline) Throughput() int { return d.Next.Throughput() }

// Post runs send (a post to the actor) with the actor's mailbox run
// inline if it is idle.
func (d *Inline) Post(send func()) {
	d.inline.Store(true)
	send()
	d.inline.Store(false)
}
