package kit

import (
	"crypto/sha256"
	"time"
)

// Latest writes data off an actor's goroutine: Hand never blocks, and a
// writer that falls behind skips to the newest data (a file that is
// rewritten whole needs only its last version). Data equal to the last
// handed is not written again.
type Latest struct {
	queue chan []byte   // capacity 1: the newest data not written yet
	done  chan struct{} // closed when the writer has finished
	// last is the digest of the data last handed, not the data: a session
	// file kept only to compare was 1.5 kB of live heap per pane.
	last   [sha256.Size]byte
	handed bool
}

// NewLatest starts the writer goroutine, which calls write for each
// version it takes.
func NewLatest(write func([]byte)) *Latest {
	l := &Latest{queue: make(chan []byte, 1), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for data := range l.queue {
			write(data)
		}
	}()
	return l
}

// Hand queues data, replacing a version not written yet.
func (l *Latest) Hand(data []byte) {
	sum := sha256.Sum256(data)
	if l.handed && sum == l.last {
		return
	}
	l.last, l.handed = sum, true
	for {
		select {
		case l.queue <- data:
			return
		default:
			select {
			case <-l.queue: // superseded
			default:
			}
		}
	}
}

// Close stops taking data and waits up to wait for the last write,
// reporting whether it finished.
func (l *Latest) Close(wait time.Duration) bool {
	close(l.queue)
	select {
	case <-l.done:
		return true
	case <-time.After(wait):
		return false
	}
}
