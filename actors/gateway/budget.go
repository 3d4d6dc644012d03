package gateway

import (
	"net"
	"sync/atomic"
	"time"
)

// What a connection may hold for a client that does not read, besides the
// 64 requests it reads ahead (window). The answers a conn has encoded and
// the socket has not taken are its unsent bytes. Past ConnBudget of them,
// or with any at all while every connection together holds more than
// TotalBudget, the conn answers no further request (so its reader, out of
// credits, reads none) until its writer has caught up; one writer that
// takes nothing for StallTimeout closes the connection. A client that
// reads is at most paced by its own reading, and a connection with
// nothing unsent is always served, so one flood cannot starve the rest. (tmux's control clients are bounded the same way, by
// bytes and by age.)
//
// The defaults are what one reading client needs to be paced by its own
// reading (one large answer at a time) and no more: 150 clients that read
// nothing cost 237 MB of RSS under 4 and 64 MiB, the collector letting the
// heap grow to twice what the budgets hold.
const (
	DefaultConnBudget   = 1 << 20
	DefaultTotalBudget  = 16 << 20
	DefaultStallTimeout = 5 * time.Minute
	// DefaultObserverStall is StallTimeout for an observer (a connection
	// that watches screens or streams events): as in Herdr 0.9.2, one
	// that makes no progress for 30 s is dropped. (Its event sub gives up
	// first, with events_lost: actors/events.)
	DefaultObserverStall = 30 * time.Second
)

// stallChunk is the most the writer hands the socket at once: a client
// that reads this much within StallTimeout is slow, not stalled.
const stallChunk = 64 << 10

// drained tells the conn actor its writer caught up with the backlog it
// was held back for.
type drained struct{}

// writable tells the conn actor its socket takes more again (or the
// total fell under its budget): it answers on.
type writable struct{}

// Backoff of awaitWritable's looks at the socket.
const (
	minWritableLook = 5 * time.Millisecond
	maxWritableLook = 500 * time.Millisecond
)

// awaitWritable starts a goroutine that tells the actor (writable) once
// the socket takes more or the total is under budget; the kernel says
// nothing when the peer reads, so it looks, less often as it waits. One
// at a time, and only while a connection is held back.
func (c *conn) awaitWritable() {
	if c.awaiting {
		return
	}
	c.awaiting = true
	root, self, done, sock, total, budget := c.root, c.self, c.done, c.c, c.opts.total, c.opts.TotalBudget
	go func() {
		t := time.NewTimer(minWritableLook)
		defer t.Stop()
		for d := minWritableLook; ; d = min(2*d, maxWritableLook) {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if total.Load() <= budget || socketWritable(sock) {
				root.Send(self, &writable{})
				return
			}
			t.Reset(d)
		}
	}()
}

// writeFailed tells the conn actor its writer could not write (a client
// gone, or one that took nothing for StallTimeout): it stops.
type writeFailed struct {
	stalled bool // the write deadline passed: the client took nothing
}

// bytes is how many bytes the writer will hand the socket for item.
func (item *outItem) bytes() int64 {
	n := len(item.raw)
	if item.line != nil {
		n += len(item.line) + 1
	}
	for _, l := range item.lines {
		n += len(l) + 1
	}
	for _, p := range item.joined {
		n += len(p)
	}
	if item.joined != nil {
		n++
	}
	return int64(n)
}

// hold counts bytes handed to the writer (or waiting in the backlog).
func (c *conn) hold(n int64) {
	if u := c.unsent.Add(n); u > c.peak {
		c.peak = u
	}
	c.opts.total.Add(n)
}

// release uncounts bytes written (or dropped) and tells the actor when it
// waits for the backlog to fall to drainAt. Called by the writer, and by
// the actor for the backlog it drops when it stops.
func (c *conn) release(n int64) {
	if n == 0 {
		return
	}
	left := c.unsent.Add(-n)
	c.opts.total.Add(-n)
	if at := c.drainAt.Load(); at >= 0 && left <= at && c.drainAt.CompareAndSwap(at, -1) {
		c.root.Send(c.self, &drained{})
	}
}

// heldBack reports whether the next request must wait for the writer; if
// so the writer sends drained once it has caught up.
func (c *conn) heldBack() bool {
	unsent := c.unsent.Load()
	if unsent == 0 {
		// Over the total, a client that has not taken what the socket
		// holds (its buffer full) waits too: otherwise every such client
		// had one more answer made and held for it (0.29 MB each).
		if c.opts.total.Load() > c.opts.TotalBudget && !socketWritable(c.c) {
			c.awaitWritable()
			return true
		}
		return false
	}
	var at int64
	switch {
	case unsent > c.opts.ConnBudget:
		at = c.opts.ConnBudget / 2
	case c.opts.total.Load() > c.opts.TotalBudget:
		at = 0 // every connection is served while its own backlog is empty
	default:
		return false
	}
	c.drainAt.Store(at)
	// The writer may have caught up before it could see drainAt.
	if c.unsent.Load() <= at && c.drainAt.CompareAndSwap(at, -1) {
		return false
	}
	return true
}

// stallWriter is the writer's way to the socket: it hands it at most
// stallChunk at a time, each under a write deadline StallTimeout away
// (moved on at most every quarter of it, not on every write), so a write
// fails once the client has taken nothing for about that long. Once the
// actor stops, its shorter writeGrace deadline stands.
// An observer's writes have the shorter observerTimeout.
type stallWriter struct {
	c               net.Conn
	timeout         time.Duration
	observerTimeout time.Duration
	observer        *atomic.Bool
	armed           time.Time
	stopping        *atomic.Bool
}

func (w *stallWriter) Write(p []byte) (int, error) {
	written := 0
	timeout := w.timeout
	if w.observer != nil && w.observer.Load() {
		timeout = min(timeout, w.observerTimeout)
	}
	for written < len(p) {
		if now := time.Now(); !w.stopping.Load() && now.Sub(w.armed) > timeout/4 {
			_ = w.c.SetWriteDeadline(now.Add(timeout))
			w.armed = now
			if w.stopping.Load() { // the actor's deadline may have come first
				_ = w.c.SetWriteDeadline(now.Add(writeGrace))
			}
		}
		n, err := w.c.Write(p[written:min(len(p), written+stallChunk)])
		written += n
		if err != nil {
			return written, err
		}
	}
	return written, nil
}
