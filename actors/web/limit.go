package web

import (
	"container/list"
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Connection budget. Anyone on the machine can connect to a loopback
// port, token or not, so what an unauthenticated connection may hold is
// small and short-lived: at most maxFresh of them at once, each for at
// most headerTimeout, and the newest pushes out the oldest (a flood of
// idle sockets cannot lock the owner's browser out: its request follows
// its connect at once). A connection that shows the credential joins the
// authenticated ones, at most maxAuthed (a browser opens a few per tab).
const (
	maxFresh  = 64
	maxAuthed = 256
)

// HTTP timeouts: a request's headers must arrive within headerTimeout,
// the whole request within readTimeout and its answer be taken within
// writeTimeout; a kept-alive connection may idle for idleTimeout. The
// WebSocket is free of them (net/http clears the deadlines when it hands
// the connection over): it lives as long as the page, and TCP keepalive
// notices a peer that vanished.
const (
	headerTimeout = 5 * time.Second
	readTimeout   = 30 * time.Second
	writeTimeout  = 30 * time.Second
	idleTimeout   = 2 * time.Minute
)

// timeouts are the server's; tests shorten them.
type timeouts struct {
	header, read, write, idle time.Duration
}

// maxHeaderBytes bounds a request's headers (net/http's default is 1 MB;
// the dashboard's requests carry a cookie at most).
const maxHeaderBytes = 16 << 10

// connLimits are maxFresh and maxAuthed, or under a low open-file limit
// what an eighth of it allows: the terminals and the API socket come first.
func connLimits(fds int, limited bool) (fresh, authed int) {
	if !limited {
		return maxFresh, maxAuthed
	}
	budget := max(2, fds/8)
	fresh = max(1, min(maxFresh, budget/4))
	return fresh, max(1, min(maxAuthed, budget-fresh))
}

// limitListener hands net/http only connections the budget allows: it
// closes the oldest unauthenticated one when a new one would pass
// maxFresh, and promote moves a connection that showed the credential to
// the authenticated ones.
type limitListener struct {
	net.Listener
	maxFresh, maxAuthed int

	mu     sync.Mutex // guards fresh and authed (goroutines of net/http)
	fresh  list.List  // of *limitedConn, oldest first
	authed int
}

func newLimitListener(ln net.Listener, fresh, authed int) *limitListener {
	return &limitListener{Listener: ln, maxFresh: fresh, maxAuthed: authed}
}

// Accept implements net.Listener.
func (l *limitListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &limitedConn{Conn: conn, l: l}
	l.mu.Lock()
	var evict *limitedConn
	if l.fresh.Len() >= l.maxFresh {
		evict = l.fresh.Remove(l.fresh.Front()).(*limitedConn)
		evict.elem = nil
	}
	c.elem = l.fresh.PushBack(c)
	l.mu.Unlock()
	if evict != nil {
		evict.refuse()
	}
	return c, nil
}

// promote counts c among the authenticated connections; false when it
// was pushed out meanwhile or there is no room (the caller answers 503).
func (l *limitListener) promote(c *limitedConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case c.authed:
		return true
	case c.elem == nil || l.authed >= l.maxAuthed:
		return false
	}
	l.fresh.Remove(c.elem)
	c.elem = nil
	c.authed = true
	l.authed++
	return true
}

// release forgets c once it is closed.
func (l *limitListener) release(c *limitedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.elem != nil {
		l.fresh.Remove(c.elem)
		c.elem = nil
	}
	if c.authed {
		c.authed = false
		l.authed--
	}
}

// limitedConn is a connection the listener counts until it is closed.
type limitedConn struct {
	net.Conn
	l         *limitListener
	elem      *list.Element // in l.fresh while unauthenticated (under l.mu)
	authed    bool          // under l.mu
	requested atomic.Bool   // net/http has read a byte of a request
	once      sync.Once
}

// Close implements net.Conn, giving the connection's place back.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}

// CloseWrite lets net/http half-close as it does a plain TCP connection.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// tooMany is what a connection pushed out before it sent a request reads.
const tooMany = "herdr: too many connections to the dashboard; try again\n"

// refuse closes a connection pushed out of the budget, telling it why
// while net/http has not read a request on it (a reply then cannot
// interleave with one net/http writes). The write cannot block long: the connection is
// idle, its send buffer empty.
func (c *limitedConn) refuse() {
	if !c.requested.Load() {
		_ = c.Conn.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		_, _ = fmt.Fprintf(c.Conn, "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(tooMany), tooMany)
	}
	_ = c.Close()
}

// connKey finds a request's connection in its context.
type connKey struct{}

// withConn is the server's ConnContext: it puts the connection in reach
// of the handler, which promotes it.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// connState is the server's ConnState: once net/http has read a request
// on a connection, a push-out no longer writes to it.
func connState(c net.Conn, s http.ConnState) {
	if lc, ok := c.(*limitedConn); ok && s != http.StateNew {
		lc.requested.Store(true)
	}
}

// requestConn is the connection r came on, if the listener counts it.
func requestConn(r *http.Request) *limitedConn {
	c, _ := r.Context().Value(connKey{}).(*limitedConn)
	return c
}
