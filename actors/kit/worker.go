package kit

// Worker is an actor dispatcher that runs the actor's mailbox on one
// goroutine kept for the actor's life. protoactor's default dispatcher
// starts a goroutine for every burst of messages, whose stack then grows
// anew each time: for an actor on a request's path that is a large part of
// the request's cost (a third of a ping on one connection).
type Worker struct {
	run  chan func()
	quit chan struct{}
}

// NewWorker starts a worker's goroutine; Stop ends it.
func NewWorker() *Worker {
	w := &Worker{run: make(chan func(), 1), quit: make(chan struct{})}
	go func() {
		for {
			select {
			case fn := <-w.run:
				fn()
			case <-w.quit:
				return
			}
		}
	}()
	return w
}

// Schedule implements actor.Dispatcher. The mailbox schedules only when it
// goes from idle to running, so at most one run waits in the channel.
func (w *Worker) Schedule(fn func()) {
	select {
	case w.run <- fn:
	case <-w.quit:
		go fn() // the actor has stopped; a last system message still runs
	}
}

// Throughput implements actor.Dispatcher: messages per run before the
// mailbox lets others go.
func (w *Worker) Throughput() int { return 300 }

// Stop ends the worker's goroutine once the actor has stopped (its
// Stopped message is the last it handles).
func (w *Worker) Stop() { close(w.quit) }
