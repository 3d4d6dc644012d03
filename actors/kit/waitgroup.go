package kit

import (
	"sync"
	"time"
)

// WaitAtMost waits for wg at most timeout and reports whether it was
// done: a stopping server waits so for the work its actors left running
// (processes to reap, a hub to shut down), and goes on without it rather
// than hang on one that never ends.
func WaitAtMost(wg *sync.WaitGroup, timeout time.Duration) bool {
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-all:
		return true
	case <-t.C:
		return false
	}
}
