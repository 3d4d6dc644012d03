package mcp

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"

	"github.com/herdr-go/herdr/protocol"
)

// The SDK's stdio connection ends at the first line it cannot decode as
// a JSON-RPC message. guardedInput stands before it: a line that is not
// one (not JSON, a bare value, an object without jsonrpc 2.0 and a method
// or an answer) never reaches it and is answered with JSON-RPC's parse or
// invalid-request error, so a client's bad line costs that line alone.
type guardedInput struct {
	in  *bufio.Reader
	out *lockedWriter
	buf []byte // what is left of the line being passed on
}

// maxLine bounds one input line: the SDK's own default bound.
const maxLine = 16 << 20

func (g *guardedInput) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		line, err := readLine(g.in)
		if len(line) > 0 {
			if reply := judge(line); reply != nil {
				g.out.Write(reply)
			} else {
				g.buf = append(line, '\n')
			}
		}
		if err != nil && len(g.buf) == 0 {
			return 0, err
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// readLine reads one line without its newline; past maxLine the rest of
// the line is skipped and what was read is returned (it fails to decode).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
			line = line[:len(line)-1]
		}
		return line, err
	}
}

// judge returns the error answer for a line that is not a JSON-RPC
// message, nil for one that is (or a blank line, dropped by returning
// an empty reply).
func judge(line []byte) []byte {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  *string         `json:"method"`
		ID      json.RawMessage `json:"id"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if !json.Valid(line) {
		return rpcError(nil, -32700, "parse error: the line is not JSON")
	}
	if protocol.Unmarshal(line, &msg) != nil {
		return rpcError(nil, -32600, "invalid request: not a JSON-RPC message object")
	}
	if msg.ID != nil && !scalarID(msg.ID) {
		return rpcError(nil, -32600, "invalid request: id must be a string or a number")
	}
	if len(msg.Params) > 0 && msg.Params[0] != '{' && msg.Params[0] != '[' && string(msg.Params) != "null" {
		return rpcError(msg.ID, -32602, "invalid params: params must be an object")
	}
	if msg.JSONRPC == "2.0" && (msg.Method != nil || (msg.ID != nil && (msg.Result != nil || msg.Error != nil))) {
		return nil
	}
	return rpcError(msg.ID, -32600, `invalid request: a JSON-RPC 2.0 message needs "jsonrpc":"2.0" and a method (or an id with a result or error)`)
}

// scalarID reports whether a message id is a string or an integer, the
// ids JSON-RPC and the SDK accept.
func scalarID(id json.RawMessage) bool {
	var s string
	var n int64
	return protocol.Unmarshal(id, &s) == nil || protocol.Unmarshal(id, &n) == nil
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

// lockedWriter keeps the SDK's messages and guardedInput's answers whole:
// each is one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
