package mcp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/herdr-go/herdr/protocol"
)

// The SDK's stdio connection ends at the first line it cannot decode as
// a JSON-RPC message. guardedInput stands before it: a line that is not
// one (not JSON, a bare value, an object without jsonrpc 2.0 and a method
// or an answer, a key named twice, longer than a request may be) never
// reaches it and is answered with JSON-RPC's parse or invalid-request
// error, so a client's bad line costs that line alone.
//
// It also keeps the requests it passed on until their answers are
// written (out tells it): the end of input means "no more requests", so
// Read reports it only once every request before it is answered (the SDK
// would cancel them), and past maxPending unanswered requests a new one
// is answered "busy" at once instead of queueing without bound.
type guardedInput struct {
	in  *bufio.Reader
	out *lockedWriter
	buf []byte // what is left of the line being passed on
}

// maxLine bounds one input line: what the herdr server accepts as one
// request line, since a tool call's arguments travel on to it.
const maxLine = protocol.MaxLineBytes

// maxPending bounds the requests passed on and not yet answered.
const maxPending = 256

// codeBusy is the JSON-RPC error (server-defined range) for a request
// refused because too many are in flight.
const codeBusy = -32000

func (g *guardedInput) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		line, long, err := readLine(g.in)
		switch {
		case long:
			g.out.Write(rpcError(nil, -32600, fmt.Sprintf("invalid request: the line is longer than %d bytes, the most one request may be", maxLine)))
		case len(line) > 0:
			if reply := g.pass(line); reply != nil {
				g.out.Write(reply)
			} else {
				g.buf = append(line, '\n')
			}
		}
		if err != nil && len(g.buf) == 0 {
			g.out.drain() // every request read is answered before the end is told
			return 0, err
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// readLine reads one line without its newline; past maxLine the rest of
// the line is skipped and long is true.
func readLine(r *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !long && len(line)+len(chunk) <= maxLine+2 { // room for \r\n
			line = append(line, chunk...)
		} else if !long {
			long, line = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
			line = line[:len(line)-1]
		}
		if len(line) > maxLine {
			long, line = true, nil
		}
		return line, long, err
	}
}

// pass judges a line and, for a request to pass on, records it as
// pending (or answers busy); a cancellation ends the wait for its request.
func (g *guardedInput) pass(line []byte) []byte {
	msg, reply := judge(line)
	if reply != nil {
		return reply
	}
	switch {
	case msg.Method != nil && msg.ID != nil:
		if !g.out.expect(msg.ID) {
			return rpcError(msg.ID, codeBusy, fmt.Sprintf("busy: %d requests are already in flight in this herdr mcp, the most it holds; send more as answers come", maxPending))
		}
	case msg.Method != nil && *msg.Method == "notifications/cancelled":
		var c struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if protocol.Unmarshal(msg.Params, &c) == nil && c.RequestID != nil {
			g.out.answered(c.RequestID)
		}
	}
	return nil
}

// rpcMessage is the envelope of a JSON-RPC message.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  *string         `json:"method"`
	ID      json.RawMessage `json:"id"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// judge returns the error answer for a line that is not a JSON-RPC
// message, or the message when it is one. An object naming a key twice
// is not one: which of two ids (or pane ids) would be meant is a guess,
// so it is refused whole, answered with id null.
func judge(line []byte) (rpcMessage, []byte) {
	var msg rpcMessage
	if !json.Valid(line) {
		return msg, rpcError(nil, -32700, "parse error: the line is not JSON")
	}
	if err := protocol.Unmarshal(line, &msg); err != nil {
		var dup *protocol.DuplicateKeyError
		if errors.As(err, &dup) {
			return msg, rpcError(nil, -32600, fmt.Sprintf("invalid request: the message names the key %q twice", dup.Key))
		}
		return msg, rpcError(nil, -32600, "invalid request: not a JSON-RPC message object")
	}
	if msg.ID != nil && !scalarID(msg.ID) {
		return msg, rpcError(nil, -32600, "invalid request: id must be a string or a number")
	}
	if len(msg.Params) > 0 && msg.Params[0] != '{' && msg.Params[0] != '[' && string(msg.Params) != "null" {
		return msg, rpcError(msg.ID, -32602, "invalid params: params must be an object")
	}
	if msg.JSONRPC == "2.0" && (msg.Method != nil || (msg.ID != nil && (msg.Result != nil || msg.Error != nil))) {
		return msg, nil
	}
	return msg, rpcError(msg.ID, -32600, `invalid request: a JSON-RPC 2.0 message needs "jsonrpc":"2.0" and a method (or an id with a result or error)`)
}

// scalarID reports whether a message id is a string or an integer, the
// ids JSON-RPC and the SDK accept.
func scalarID(id json.RawMessage) bool {
	_, ok := idKey(id)
	return ok
}

// idKey is an id as the SDK writes it back, whatever its spelling in
// the request ("\u0061" is "a"): strings and integers apart.
func idKey(id json.RawMessage) (string, bool) {
	var s string
	var n int64
	switch {
	case protocol.Unmarshal(id, &s) == nil:
		return "s" + s, true
	case protocol.Unmarshal(id, &n) == nil:
		return "n" + strconv.FormatInt(n, 10), true
	}
	return "", false
}

func rpcError(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return append(b, '\n')
}

// lockedWriter keeps the SDK's messages and guardedInput's answers whole
// (each is one Write) and notes which pending requests they answer.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending map[string]bool // ids passed on, not answered yet
	broken  bool            // a write failed: nobody reads the answers
	settled *sync.Cond      // pending shrank or the output broke
}

func newLockedWriter(w io.Writer) *lockedWriter {
	l := &lockedWriter{w: w, pending: map[string]bool{}}
	l.settled = sync.NewCond(&l.mu)
	return l
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if err != nil {
		l.broken = true
		l.settled.Broadcast()
		return n, err
	}
	if len(l.pending) > 0 {
		l.noteAnswers(p)
	}
	return n, err
}

// noteAnswers drops from pending the requests p answers (a response or
// a batch of them). Called with mu held.
func (l *lockedWriter) noteAnswers(p []byte) {
	var one rpcMessage
	var batch []rpcMessage
	if protocol.Unmarshal(p, &one) == nil {
		batch = append(batch, one)
	} else if protocol.Unmarshal(p, &batch) != nil {
		return
	}
	for _, m := range batch {
		if m.Method == nil && m.ID != nil {
			if k, ok := idKey(m.ID); ok && l.pending[k] {
				delete(l.pending, k)
				l.settled.Broadcast()
			}
		}
	}
}

// expect records a request passed on; false when maxPending are already.
// A request reusing a pending id adds nothing to wait for.
func (l *lockedWriter) expect(id json.RawMessage) bool {
	k, _ := idKey(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.pending[k] && len(l.pending) >= maxPending {
		return false
	}
	l.pending[k] = true
	return true
}

// answered stops waiting for id's answer (the client cancelled it).
func (l *lockedWriter) answered(id json.RawMessage) {
	k, ok := idKey(id)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.pending, k)
	l.settled.Broadcast()
}

// drain returns once every pending request is answered or the output
// broke.
func (l *lockedWriter) drain() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.pending) > 0 && !l.broken {
		l.settled.Wait()
	}
}

func (l *lockedWriter) Close() error { return nil }
