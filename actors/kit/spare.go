package kit

import "sync/atomic"

// Spare runs functions on goroutines that, once a function returns, wait
// for the next one (at most Keep of them wait; the rest end). A new
// goroutine starts with a small stack and grows it, a copy each time, as
// the calls it makes go deeper: a connection's reader runs its actor's
// mailbox, and the growth of each new reader's stack was a tenth of a
// fresh connection's CPU time. A goroutine kept here has grown already.
type Spare struct {
	run  chan func()
	idle atomic.Int32
	keep int32
}

// NewSpare keeps at most keep goroutines waiting.
func NewSpare(keep int) *Spare { return &Spare{run: make(chan func()), keep: int32(keep)} }

// Go runs fn on a waiting goroutine, else on a new one.
func (s *Spare) Go(fn func()) {
	select {
	case s.run <- fn: // the channel is unbuffered: only a waiting goroutine takes it
	default:
		go s.loop(fn)
	}
}

func (s *Spare) loop(fn func()) {
	for {
		fn()
		if s.idle.Add(1) > s.keep {
			s.idle.Add(-1)
			return
		}
		fn = <-s.run
		s.idle.Add(-1)
	}
}
