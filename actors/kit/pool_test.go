package kit

import (
	"testing"
	"time"
)

// A pool whose goroutines are all busy still runs what is scheduled, on a
// goroutine of its own, without the caller waiting.
func TestPool_BusyPoolNeverBlocks(t *testing.T) {
	p := NewPool(1)
	release := make(chan struct{})
	started := make(chan struct{})
	p.Schedule(func() { close(started); <-release })
	<-started // the only pool goroutine is held
	ran := make(chan struct{})
	p.Schedule(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("a run scheduled while the pool was busy did not run")
	}
	close(release)
}
