package kit

import (
	"sync"
	"testing"
	"time"
)

// Spare runs every function once, each on a goroutine of its own while
// others still run (none waits for a busy one), and its kept goroutines
// take later functions.
func TestSpare_RunsEveryFunctionAtOnce(t *testing.T) {
	s := NewSpare(2)
	const n = 20
	var all, done sync.WaitGroup
	all.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		s.Go(func() {
			all.Done()
			all.Wait() // returns only once all n run at the same time
			done.Done()
		})
	}
	waitGroup(t, &done, "20 functions that wait for each other")
	for i := 0; i < 50; i++ { // after them, one at a time
		var one sync.WaitGroup
		one.Add(1)
		s.Go(one.Done)
		waitGroup(t, &one, "a function run after the others ended")
	}
	if idle := s.idle.Load(); idle > 2 {
		t.Fatalf("%d goroutines wait, want at most the 2 kept", idle)
	}
}

func waitGroup(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not finish", what)
	}
}
