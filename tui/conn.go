package tui

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// errClosed is returned by calls on a connection that went away.
var errClosed = errors.New("connection to the herdr server closed")

// rpcConn is one socket connection that pipelines requests: writes are
// serialised in call order, a reader goroutine matches answers to callers
// by id and hands every line without an id (events, frames) to onPush,
// saying whether more lines are already buffered behind it.
type rpcConn struct {
	c       net.Conn
	mu      sync.Mutex // guards next, pending, closed and writes
	next    uint64
	pending map[string]chan protocol.Response
	closed  bool
	done    chan struct{} // closed when the reader ends
	// handedOver: the server answered server_unavailable here, as the
	// old server of a live handoff ends every connection.
	handedOver atomic.Bool
}

// dial connects to the socket; onPush runs on the reader goroutine.
func dial(sock string, onPush func(line []byte, more bool)) (*rpcConn, error) {
	c, err := protocol.Dial(sock, 2*time.Second)
	if err != nil {
		return nil, err
	}
	return newRPCConn(c, onPush), nil
}

// newRPCConn runs the reader of an open connection.
func newRPCConn(c net.Conn, onPush func(line []byte, more bool)) *rpcConn {
	r := &rpcConn{c: c, pending: map[string]chan protocol.Response{}, done: make(chan struct{})}
	go r.readLoop(onPush)
	return r
}

func (r *rpcConn) readLoop(onPush func([]byte, bool)) {
	defer close(r.done)
	br := bufio.NewReaderSize(r.c, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			r.dispatch(line, br.Buffered() > 0, onPush)
		}
		if err != nil {
			break
		}
	}
	r.mu.Lock()
	r.closed = true
	for id, ch := range r.pending {
		close(ch)
		delete(r.pending, id)
	}
	r.mu.Unlock()
}

func (r *rpcConn) dispatch(line []byte, more bool, onPush func([]byte, bool)) {
	var head struct {
		ID *string `json:"id"`
	}
	if protocol.Unmarshal(line, &head) != nil {
		return
	}
	if head.ID == nil {
		if onPush != nil {
			onPush(line, more)
		}
		return
	}
	var resp protocol.Response
	if protocol.Unmarshal(line, &resp) != nil {
		return
	}
	if resp.Error != nil && resp.Error.Code == protocol.CodeServerUnavailable {
		r.handedOver.Store(true) // also on a stream's end, which has no caller
	}
	r.mu.Lock()
	ch := r.pending[resp.ID]
	delete(r.pending, resp.ID)
	r.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
}

// start writes a request and returns the channel its answer arrives on.
func (r *rpcConn) start(method string, params any) (chan protocol.Response, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode %s params: %w", method, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errClosed
	}
	r.next++
	id := "tui" + strconv.FormatUint(r.next, 10)
	line, err := json.Marshal(protocol.Request{ID: id, Method: method, Params: p})
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	ch := make(chan protocol.Response, 1)
	r.pending[id] = ch
	if _, err := r.c.Write(append(line, '\n')); err != nil {
		delete(r.pending, id)
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	return ch, nil
}

// call sends a request and waits for its answer, decoding the result into
// out (may be nil). An error answer comes back as *protocol.Error.
func (r *rpcConn) call(method string, params, out any) error {
	ch, err := r.start(method, params)
	if err != nil {
		return err
	}
	resp, ok := <-ch
	if !ok {
		return errClosed
	}
	if resp.Error != nil {
		return &protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message}
	}
	if out != nil {
		if err := protocol.Unmarshal(resp.Result, out); err != nil {
			return fmt.Errorf("decode %s result: %w", method, err)
		}
	}
	return nil
}

// send writes a request without waiting; a failure (of the write or the
// answer) is reported to onErr, from another goroutine, when it is non-nil.
func (r *rpcConn) send(method string, params any, onErr func(error)) {
	ch, err := r.start(method, params)
	if err != nil {
		if onErr != nil {
			go onErr(err)
		}
		return
	}
	if onErr == nil {
		return // the answer lands in ch's buffer and is dropped with it
	}
	go func() {
		resp, ok := <-ch
		switch {
		case !ok:
			onErr(errClosed)
		case resp.Error != nil:
			onErr(fmt.Errorf("%s: %s", method, resp.Error.Message))
		}
	}()
}

func (r *rpcConn) close() error { return r.c.Close() }

// requester is the request connection as the client uses it: an rpcConn,
// or a test's fake server (copy mode's text, a refusing buffer.set).
type requester interface {
	call(method string, params, out any) error
	send(method string, params any, onErr func(error))
	sendThen(method string, params any, done func(error))
	close() error
	// ended is closed when the connection's reader ends.
	ended() <-chan struct{}
	// handedOff: the server answered server_unavailable (a live handoff).
	handedOff() bool
}

func (r *rpcConn) ended() <-chan struct{} { return r.done }
func (r *rpcConn) handedOff() bool        { return r.handedOver.Load() }

// sendThen writes a request without waiting and calls done, from another
// goroutine, with its outcome: nil, errClosed, or the *protocol.Error the
// server answered.
func (r *rpcConn) sendThen(method string, params any, done func(error)) {
	ch, err := r.start(method, params)
	if err != nil {
		go done(err)
		return
	}
	go func() {
		resp, ok := <-ch
		switch {
		case !ok:
			done(errClosed)
		case resp.Error != nil:
			done(&protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message})
		default:
			done(nil)
		}
	}()
}
