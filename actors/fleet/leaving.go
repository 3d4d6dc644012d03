package fleet

import (
	"sync"
	"time"

	"github.com/herdr-go/herdr/actors/kit"
)

// Leaving counts the work the fleet's actors leave running off their
// goroutines as they stop (Receive never blocks): the last write of the
// member's place in the event stream, the link's drain, the embedded
// hub's shutdown, which closes its store. The server waits for it before
// it exits, so none of them is cut short. A nil *Leaving runs the work
// uncounted.
type Leaving struct{ wg sync.WaitGroup }

// Go runs fn on a goroutine of its own, counted.
func (l *Leaving) Go(fn func()) {
	if l == nil {
		go fn()
		return
	}
	l.wg.Go(fn)
}

// Wait waits until all the counted work has ended, at most timeout; it
// reports whether it all did.
func (l *Leaving) Wait(timeout time.Duration) bool {
	if l == nil {
		return true
	}
	return kit.WaitAtMost(&l.wg, timeout)
}
