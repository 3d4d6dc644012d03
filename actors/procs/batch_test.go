package procs

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Session calls made while a walk runs share the next walk: 200 callers
// at once cost two walks (the one under way when they asked, and one
// more), not 200, and each is answered from a walk begun after its call.
func TestSessionWalks_CallersAtOnceShareOneWalk(t *testing.T) {
	var walksDone atomic.Int32
	release := make(chan struct{})
	w := &sessionWalks{}
	w.walk = func(sids map[int]bool) map[int][]int {
		if walksDone.Add(1) == 1 {
			<-release // the first walk is under way while the rest ask
		}
		out := map[int][]int{}
		for sid := range sids {
			out[sid] = []int{sid, sid + 1}
		}
		return out
	}
	const callers = 200
	var wg sync.WaitGroup
	answers := make([][]int, callers)
	first := make(chan struct{})
	wg.Add(1)
	go func() { defer wg.Done(); answers[0] = w.session(1000); close(first) }()
	waitUntil(t, "the first walk to start", func() bool { return walksDone.Load() == 1 })
	for i := 1; i < callers; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); answers[i] = w.session(1000 + i) }()
	}
	waitUntil(t, "every caller to wait", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.pending) == callers-1
	})
	close(release)
	wg.Wait()
	if n := walksDone.Load(); n != 2 {
		t.Fatalf("%d callers made %d walks, want 2", callers, n)
	}
	for i, got := range answers {
		if sid := 1000 + i; !slices.Equal(got, []int{sid, sid + 1}) {
			t.Fatalf("caller of session %d got %v", sid, got)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.walking || len(w.pending) != 0 {
		t.Fatalf("walker left running (%v) or callers pending (%d)", w.walking, len(w.pending))
	}
}

func waitUntil(t *testing.T, why string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", why)
		}
		time.Sleep(time.Millisecond) // poll interval
	}
}
