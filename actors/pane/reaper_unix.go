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
// plugin commands) are left to whoever started them.
var reaper struct {
	once    sync.Once
	mu      sync.Mutex // guards waiting: registrations come from every pane
	waiting map[int]chan int
}

// exitOf returns a channel that receives pid's exit code once it exits.
func exitOf(pid int) <-chan int {
	reaper.once.Do(func() {
		reaper.waiting = map[int]chan int{}
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGCHLD)
		go func() {
			for range sigs {
				reapAll()
			}
		}()
	})
	ch := make(chan int, 1)
	reaper.mu.Lock()
	reaper.waiting[pid] = ch
	reaper.mu.Unlock()
	reapAll() // it may have exited before it was registered
	return ch
}

// reapAll collects every registered child that has exited.
func reapAll() {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	for pid, ch := range reaper.waiting {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		switch {
		case got == pid:
			ch <- exitCode(ws)
		case err == syscall.ECHILD: // reaped elsewhere: its code is lost
			ch <- -1
		default:
			continue
		}
		delete(reaper.waiting, pid)
	}
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
