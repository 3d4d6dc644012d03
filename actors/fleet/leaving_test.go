package fleet

import (
	"testing"
	"time"
)

func TestLeaving_WaitsForTheWorkItCounts(t *testing.T) {
	var l Leaving
	release := make(chan struct{})
	l.Go(func() { <-release })
	if l.Wait(50 * time.Millisecond) {
		t.Fatal("Wait reported the work ended while it still ran")
	}
	close(release)
	if !l.Wait(5 * time.Second) {
		t.Fatal("Wait did not see the work end")
	}

	var none *Leaving // uncounted: the work still runs
	ran := make(chan struct{})
	none.Go(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("a nil Leaving did not run the work")
	}
	if !none.Wait(time.Millisecond) {
		t.Fatal("a nil Leaving has nothing to wait for")
	}
}
