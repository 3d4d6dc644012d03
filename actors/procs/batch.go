package procs

import (
	"slices"
	"sync"
)

// sessionWalks shares one walk of the process table among the Session
// calls that wait at once. Every pane checks its session as it closes, so
// a server stopping 3,000 panes made 3,000 walks of all of /proc at the
// same moment (minutes of reads, and gigabytes of them in memory); now
// the calls made while one walk runs wait for the next, which answers
// them all. A caller's answer always comes from a walk begun after its
// call, so no one is told of a process table older than their question.
type sessionWalks struct {
	walk func(sids map[int]bool) map[int][]int // one pass over the table

	mu      sync.Mutex           // guards what follows: callers are on any goroutine
	pending map[int][]chan []int // waiters by session id, for the next walk
	walking bool                 // a goroutine is running walks
}

// session lists the processes of the session sid leads.
func (w *sessionWalks) session(sid int) []int {
	ch := make(chan []int, 1)
	w.mu.Lock()
	if w.pending == nil {
		w.pending = map[int][]chan []int{}
	}
	w.pending[sid] = append(w.pending[sid], ch)
	if !w.walking {
		w.walking = true
		go w.run()
	}
	w.mu.Unlock()
	return <-ch
}

// run walks until nobody waits.
func (w *sessionWalks) run() {
	for {
		w.mu.Lock()
		waiting := w.pending
		w.pending = nil
		if len(waiting) == 0 {
			w.walking = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		sids := make(map[int]bool, len(waiting))
		for sid := range waiting {
			sids[sid] = true
		}
		found := w.walk(sids)
		for sid, chans := range waiting {
			for _, ch := range chans {
				ch <- slices.Clone(found[sid]) // each caller's own
			}
		}
	}
}
