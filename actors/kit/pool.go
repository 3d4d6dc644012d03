package kit

// Pool is an actor dispatcher shared by many actors: their mailboxes run
// on a few goroutines kept for the life of the process, whose stacks have
// already grown, instead of a new goroutine for every burst of messages
// (protoactor's default, whose stack grows anew each time). A burst that
// finds every pool goroutine busy gets a goroutine of its own, as with the
// default, so scheduling never waits and no actor can hold another up.
type Pool struct{ run chan func() }

// NewPool starts n pool goroutines.
func NewPool(n int) *Pool {
	p := &Pool{run: make(chan func())}
	for i := 0; i < n; i++ {
		go func() {
			for fn := range p.run {
				fn()
			}
		}()
	}
	return p
}

// Schedule implements actor.Dispatcher: an idle pool goroutine takes fn
// (the channel is unbuffered, so the send succeeds only when one waits),
// else fn gets a goroutine of its own.
func (p *Pool) Schedule(fn func()) {
	select {
	case p.run <- fn:
	default:
		go fn()
	}
}

// Throughput implements actor.Dispatcher: messages per run before the
// mailbox lets others go.
func (p *Pool) Throughput() int { return 300 }
