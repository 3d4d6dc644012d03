//go:build unix

package pane

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// reaper collects the exit of every pane's child on one goroutine, woken
// by SIGCHLD, instead of a goroutine per pane blocked in wait4 (each of
// which holds an OS thread for the life of its pane). It only ever waits
// for pids registered with it, so other children of the server (git,
// plugin commands, another runtime's panes) are left to whoever started
// them. One per Runtime; its goroutine starts with the first child.
type reaper struct {
	once    sync.Once
	mu      sync.Mutex // guards waiting: registrations come from every pane
	waiting map[int]*exitNote
	// wait4 collects pid if it has exited (syscall.Wait4 with WNOHANG;
	// tests count the calls).
	wait4 func(pid int, ws *syscall.WaitStatus) (int, error)
}

func newReaper() *reaper {
	return &reaper{waiting: map[int]*exitNote{}, wait4: func(pid int, ws *syscall.WaitStatus) (int, error) {
		return syscall.Wait4(pid, ws, syscall.WNOHANG, nil)
	}}
}

// exitNote is where one child's exit lands, once: Wait blocks on done,
// and a callback set by OnExit runs on whichever goroutine delivers it, so
// no goroutine per pane sits waiting.
type exitNote struct {
	mu   sync.Mutex // guards fn and code against deliver
	done chan struct{}
	code int
	fn   func(code int)
}

func newExitNote() *exitNote { return &exitNote{done: make(chan struct{})} }

// deliver records the exit and runs the callback, if one is set.
func (e *exitNote) deliver(code int) {
	e.mu.Lock()
	e.code = code
	close(e.done)
	fn := e.fn
	e.mu.Unlock()
	if fn != nil {
		fn(code)
	}
}

// wait blocks until the exit is delivered and returns its code.
func (e *exitNote) wait() int {
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.code
}

// onExit runs fn with the exit code once it is known: at once when it is.
func (e *exitNote) onExit(fn func(code int)) {
	e.mu.Lock()
	select {
	case <-e.done:
		code := e.code
		e.mu.Unlock()
		fn(code)
		return
	default:
	}
	e.fn = fn
	e.mu.Unlock()
}

// exitOf returns the note that receives pid's exit code once it exits.
func (r *reaper) exitOf(pid int) *exitNote {
	r.once.Do(func() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGCHLD)
		go func() {
			for range sigs {
				r.reapAll()
			}
		}()
	})
	n := newExitNote()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waiting[pid] = n
	r.reap(pid, n) // it may have exited before it was registered
	return n
}

// reapAll collects every registered child that has exited.
func (r *reaper) reapAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for pid, n := range r.waiting {
		r.reap(pid, n)
	}
}

// reap collects pid if it has exited (r.mu held). A new child checks only
// itself: checking every registered child as each one starts made a
// restore of n panes cost n² wait4 calls.
func (r *reaper) reap(pid int, n *exitNote) {
	var ws syscall.WaitStatus
	got, err := r.wait4(pid, &ws)
	switch {
	case got == pid:
		n.deliver(exitCode(ws))
	case err == syscall.ECHILD: // reaped elsewhere: its code is lost
		n.deliver(-1)
	default:
		return
	}
	delete(r.waiting, pid)
}

func exitCode(ws syscall.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return -1
}
