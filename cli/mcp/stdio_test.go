package mcp

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// Lines that are not JSON-RPC messages are answered with JSON-RPC errors
// and the stdio server carries on answering the next requests.
func TestServe_BadLinesDoNotEndIt(t *testing.T) {
	f := &fakeHerdr{handle: notFound}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(t.Context(), Options{Dial: f.dial}, inR, outW) }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	answer := func(send string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, send+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan map[string]any, 1)
		go func() {
			var m map[string]any
			if lines.Scan() {
				json.Unmarshal(lines.Bytes(), &m)
			}
			got <- m
		}()
		select {
		case m := <-got:
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", send)
		}
		return nil
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	if m := answer(`garbage{`); code(m) != -32700 {
		t.Fatalf("not JSON: %v", m)
	}
	if m := answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for _, bad := range []string{`[1,2]`, `{"a":1}`, `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"x"}`} {
		if m := answer(bad); code(m) > -32600 || code(m) < -32700 {
			t.Fatalf("%s: %v", bad, m)
		}
	}
	m := answer(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if r, _ := m["result"].(map[string]any); r == nil || !strings.Contains(toJSON(r), `"read_pane"`) {
		t.Fatalf("tools/list after bad lines: %v", m)
	}
	inW.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not end with its input")
	}
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
