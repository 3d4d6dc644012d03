package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// stdioRun is Serve on pipes: what is written to in, and every message
// it writes, decoded, on out (closed when Serve returns).
type stdioRun struct {
	in     *io.PipeWriter
	out    chan map[string]any
	served chan error
}

func runStdio(t *testing.T, f *fakeHerdr) *stdioRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &stdioRun{in: inW, out: make(chan map[string]any, 1024), served: make(chan error, 1)}
	go func() {
		err := Serve(t.Context(), Options{Dial: f.dial}, inR, outW)
		outW.Close()
		r.served <- err
	}()
	go func() {
		defer close(r.out)
		lines := bufio.NewScanner(outR)
		lines.Buffer(nil, 4<<20)
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				m = map[string]any{"undecodable": lines.Text()}
			}
			r.out <- m
		}
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return r
}

func (r *stdioRun) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(r.in, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// next is the next message written, failing the test when none comes.
func (r *stdioRun) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m, ok := <-r.out:
		if !ok {
			t.Fatal("the output ended")
		}
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no message")
	}
	return nil
}

func rpcCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func rpcMessageText(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func toolCall(id any, name string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	return string(b)
}

// Requests written before the input ends are all answered, even one
// still at the herdr server when the end is read; Serve then returns.
func TestServe_EOFAnswersRequestsInFlight(t *testing.T) {
	release := make(chan struct{})
	f := &fakeHerdr{handle: func(method string, _ json.RawMessage) (any, error) {
		<-release // answered only after the input has ended
		return protocol.WorkspaceList{}, nil
	}}
	r := runStdio(t, f)
	r.send(t, initLine, initializedLine, toolCall(2, "list_workspaces", map[string]any{}), toolCall("three", "list_workspaces", map[string]any{}))
	r.in.Close()
	if m := r.next(t); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	WaitUntil(t, "both calls at the fake server", func() bool { return strings.Count(strings.Join(f.methods(), ","), "workspace.list") == 2 })
	close(release)
	got := map[any]map[string]any{}
	for m := range r.out {
		got[m["id"]] = m
	}
	for _, id := range []any{float64(2), "three"} {
		res, _ := got[id]["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("request %v: %v", id, got[id])
		}
	}
	if err := <-r.served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// WaitUntil polls cond (no timing decides anything but a hang).
func WaitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A line longer than the server accepts is answered with an error naming
// the limit and never forwarded; the next request is served.
func TestServe_LongLineIsRefusedWithTheLimit(t *testing.T) {
	f := &fakeHerdr{handle: func(string, json.RawMessage) (any, error) { return protocol.WorkspaceList{}, nil }}
	r := runStdio(t, f)
	r.send(t, initLine, initializedLine)
	r.next(t)
	long := toolCall(2, "send_text", map[string]any{"pane_id": "w1:p1", "text": strings.Repeat("x", protocol.MaxLineBytes)})
	r.send(t, long, toolCall(3, "list_workspaces", map[string]any{}))
	m := r.next(t)
	if rpcCode(m) != -32600 || !strings.Contains(rpcMessageText(m), fmt.Sprint(protocol.MaxLineBytes)) {
		t.Fatalf("a %d-byte line: %v", len(long), m)
	}
	if m := r.next(t); m["id"] != float64(3) || m["result"] == nil {
		t.Fatalf("after the long line: %v", m)
	}
	if strings.Contains(strings.Join(f.methods(), ","), "pane.send_text") {
		t.Fatal("the long line reached the herdr server")
	}
	// Under the line limit but over it once escaped for the server: refused
	// with the limit, not a lost connection.
	r.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"send_text","arguments":{"pane_id":"w1:p1","text":"`+strings.Repeat("<", protocol.MaxLineBytes/2)+`"}}}`)
	m = r.next(t)
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(toJSON(res), "invalid_params") || !strings.Contains(toJSON(res), fmt.Sprint(protocol.MaxLineBytes)) {
		t.Fatalf("an escaped text over the server's line: %v", toJSON(m))
	}
}

// A message naming a key twice, the id or any other, is refused with the
// invalid request error and id null: no guessing which one was meant.
func TestServe_DuplicateKeysAreRefused(t *testing.T) {
	f := &fakeHerdr{handle: func(string, json.RawMessage) (any, error) { return protocol.PaneReadResult{}, nil }}
	r := runStdio(t, f)
	r.send(t, initLine, initializedLine)
	r.next(t)
	for _, bad := range []string{
		`{"jsonrpc":"2.0","id":2,"id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_pane","arguments":{"pane_id":"w1:p1","pane_id":"w1:p2"}}}`,
		`{"jsonrpc":"2.0","\u0069d":5,"id":6,"method":"tools/list"}`,
	} {
		r.send(t, bad)
		m := r.next(t)
		if rpcCode(m) != -32600 || m["id"] != nil || !strings.Contains(rpcMessageText(m), "twice") {
			t.Fatalf("%s: %v", bad, m)
		}
		if _, has := m["id"]; !has {
			t.Fatalf("%s: the answer has no id (null): %v", bad, m)
		}
	}
	if strings.Contains(strings.Join(f.methods(), ","), "pane.read") {
		t.Fatal("a message with a key twice reached the herdr server")
	}
}

// countingHerdr is a fake server whose calls block until released,
// counting the connections open at once.
type countingHerdr struct {
	fakeHerdr
	open, most atomic.Int32
	release    chan struct{}
	once       sync.Once
}

func newCountingHerdr() *countingHerdr {
	c := &countingHerdr{release: make(chan struct{})}
	c.handle = func(method string, _ json.RawMessage) (any, error) {
		n := c.open.Add(1)
		for {
			m := c.most.Load()
			if n <= m || c.most.CompareAndSwap(m, n) {
				break
			}
		}
		defer c.open.Add(-1)
		if method == "workspace.list" {
			return protocol.WorkspaceList{}, nil
		}
		<-c.release
		return protocol.PaneReadResult{}, nil
	}
	return c
}

func (c *countingHerdr) free() { c.once.Do(func() { close(c.release) }) }

// Waits beyond their share are refused at once with a JSON-RPC error;
// those running never pass maxWaits connections, and a short call is
// still served beside them.
func TestTools_WaitsAreBounded(t *testing.T) {
	c := newCountingHerdr()
	t.Cleanup(c.free)
	cs := connect(t, &c.fakeHerdr, Options{}, nil)
	const n = 60
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "wait_output",
				Arguments: map[string]any{"pane_id": fmt.Sprintf("w1:p%d", i), "pattern": "x"}})
			errs <- err
		}()
	}
	for range n - maxWaits {
		var err error
		select {
		case err = <-errs:
		case <-time.After(30 * time.Second):
			t.Fatalf("waits past the share were not refused (%d at the server)", c.open.Load())
		}
		if err == nil || !strings.Contains(err.Error(), "busy") {
			t.Fatalf("a wait past the share: %v", err)
		}
	}
	if c.open.Load() != maxWaits || c.most.Load() != maxWaits {
		t.Fatalf("%d waits at the server (most %d), want %d", c.open.Load(), c.most.Load(), maxWaits)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_workspaces", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("a short call beside the waits: %v %v", err, res)
	}
	c.free()
	for range maxWaits {
		if err := <-errs; err != nil { // released: they answer
			t.Fatalf("a wait within the share: %v", err)
		}
	}
}

// Short calls queue for maxCalls connections; past maxPending requests
// in flight the stdio server answers busy at once, and every request is
// answered in the end.
func TestServe_RequestsInFlightAreBounded(t *testing.T) {
	c := newCountingHerdr()
	t.Cleanup(c.free)
	r := runStdio(t, &c.fakeHerdr)
	r.send(t, initLine, initializedLine)
	r.next(t)
	const n = maxPending + 40
	for i := range n {
		r.send(t, toolCall(100+i, "read_pane", map[string]any{"pane_id": "w1:p1"}))
	}
	for range n - maxPending {
		m := r.next(t)
		if rpcCode(m) != codeBusy || !strings.Contains(rpcMessageText(m), "busy") {
			t.Fatalf("a request past the bound: %v", m)
		}
	}
	WaitUntil(t, "the connection slots filled", func() bool { return c.open.Load() == maxCalls })
	if c.most.Load() != maxCalls {
		t.Fatalf("%d connections at once, want at most %d", c.most.Load(), maxCalls)
	}
	c.free()
	r.in.Close()
	answered := 0
	for m := range r.out {
		if res, _ := m["result"].(map[string]any); res != nil && res["isError"] != true {
			answered++
		}
	}
	if answered != maxPending {
		t.Fatalf("%d requests answered after the input ended, want %d", answered, maxPending)
	}
}
