package server

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// startServer runs a server in-process on a socket in a temp dir and stops
// it with server.stop when the test ends.
func startServer(tb testing.TB) string {
	tb.Helper()
	return startServerWith(tb, "[terminal]\ndefault_shell = \"/bin/sh\"\n")
}

// dial connects to the server and closes the connection when the test ends.
func dial(tb testing.TB, sock string) *protocol.Client {
	tb.Helper()
	c, err := protocol.Connect(sock)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// startServerWith is startServer with the given config.toml.
func startServerWith(tb testing.TB, config string) string {
	tb.Helper()
	requireUnixShell(tb)
	dir, err := os.MkdirTemp("", "hs")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		tb.Fatal(err)
	}
	sock := filepath.Join(dir, "herdr.sock")
	env := map[string]string{"HOME": dir}
	done := make(chan error, 1)
	go func() {
		done <- Run(Options{SocketPath: sock, ConfigPath: cfg, LogPath: filepath.Join(dir, "server.log"), Env: func(k string) string { return env[k] }})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := protocol.Connect(sock)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			tb.Fatalf("server exited early: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("server did not come up: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	tb.Cleanup(func() {
		if c, err := protocol.Connect(sock); err == nil {
			c.Call("server.stop", nil, nil)
			c.Close()
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			tb.Error("server did not stop")
		}
	})
	return sock
}

func TestServer_PingAndErrors(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	var pong protocol.Pong
	if err := c.Call("ping", nil, &pong); err != nil || pong.Protocol != 22 {
		t.Fatalf("ping: %+v %v", pong, err)
	}
	cases := []struct{ line, want string }{
		{`nonsense`, `{"id":"","error":{"code":"invalid_request"`},
		{`{"id":"x","method":"no.such","params":{}}`, `{"id":"x","error":{"code":"unknown_method"`},
		{`{"id":"y","method":"pane.get","params":{}}`, `{"id":"y","error":{"code":"invalid_params","message":"invalid params: pane_id`},
		{`{"id":"z","method":"pane.get","params":{"pane_id":"w9:p9"}}`, `{"id":"z","error":{"code":"pane_not_found"`},
	}
	for _, tc := range cases {
		got, err := c.RoundTrip([]byte(tc.line))
		if err != nil || !strings.HasPrefix(string(got), tc.want) {
			t.Errorf("%s → %s (%v), want prefix %s", tc.line, got, err, tc.want)
		}
	}
}

func TestServer_WorkspaceLifecycle(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	var created protocol.WorkspaceCreated
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp", "label": "api"}, &created); err != nil {
		t.Fatal(err)
	}
	if created.Workspace.WorkspaceID != "w1" || created.RootPane.PaneID != "w1:p1" || created.Tab.TabID != "w1:t1" {
		t.Fatalf("created = %+v", created)
	}
	var split protocol.PaneInfoResult
	if err := c.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down", "ratio": 0.3}, &split); err != nil {
		t.Fatal(err)
	}
	if split.Pane.PaneID != "w1:p2" || split.Pane.Focused {
		t.Fatalf("split = %+v", split.Pane)
	}
	if err := c.Call("pane.send_input", map[string]any{"pane_id": "w1:p2", "text": "echo $((6*7))", "keys": []string{"Enter"}}, nil); err != nil {
		t.Fatal(err)
	}
	var matched protocol.OutputMatched
	err := c.Call("pane.wait_for_output", map[string]any{
		"pane_id": "w1:p2", "source": "recent", "match": map[string]string{"type": "regex", "value": "42$"}, "timeout_ms": 10000,
	}, &matched)
	if err != nil || matched.MatchedLine == nil || !strings.HasSuffix(*matched.MatchedLine, "42") {
		t.Fatalf("wait: %+v %v", matched, err)
	}
	if err := c.Call("workspace.close", map[string]any{"workspace_id": "w1"}, nil); err != nil {
		t.Fatal(err)
	}
	var list protocol.PaneList
	if err := c.Call("pane.list", nil, &list); err != nil || len(list.Panes) != 0 {
		t.Fatalf("after close: %+v %v", list, err)
	}
}

func BenchmarkPing_OneConnection(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	line := []byte(`{"id":"1","method":"ping","params":{}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RoundTrip(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPing_FreshConnection(b *testing.B) {
	sock := startServer(b)
	line := []byte(`{"id":"1","method":"ping","params":{}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := protocol.Connect(sock)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.RoundTrip(line); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

func BenchmarkPaneGet_OneConnection(b *testing.B) {
	benchPaneRoundTrip(b, `{"id":"1","method":"pane.get","params":{"pane_id":"w1:p1"}}`)
}

// benchPaneRoundTrip times one request line about a new workspace's pane,
// round trip after round trip on one connection.
func benchPaneRoundTrip(b *testing.B, request string) {
	sock := startServer(b)
	c := dial(b, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		b.Fatal(err)
	}
	line := []byte(request)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := c.RoundTrip(line)
		if err != nil {
			b.Fatal(err)
		}
		var resp protocol.Response
		if i == 0 && (json.Unmarshal(out, &resp) != nil || resp.Error != nil) {
			b.Fatalf("%s: %s", request, out)
		}
	}
}

// TestServer_PaneNotReadingInputStaysResponsive: input for a program that
// never reads it must not stall the pane: its output and reads go on.
func TestServer_PaneNotReadingInputStaysResponsive(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		t.Fatal(err)
	}
	// A foreground program that prints a line a tick and never reads.
	if err := c.Call("pane.send_input", map[string]any{"pane_id": "w1:p1", "text": "stty -icanon -echo; while :; do echo tick-$((n=n+1)); sleep 0.05; done", "keys": []string{"Enter"}}, nil); err != nil {
		t.Fatal(err)
	}
	waitTick := func(why string) {
		t.Helper()
		if err := c.Call("pane.wait_for_output", map[string]any{"pane_id": "w1:p1", "source": "recent", "lines": 3,
			"match": map[string]string{"type": "regex", "value": "tick-[0-9]+$"}, "timeout_ms": 5000}, nil); err != nil {
			t.Fatalf("%s: %v", why, err)
		}
	}
	waitTick("before the flood")
	c.Conn().SetDeadline(time.Now().Add(10 * time.Second)) // a stalled pane fails, not hangs
	// Far more input than the terminal buffers: the writer blocks, the pane does not.
	big := strings.Repeat("x", 64<<10)
	for i := 0; i < 8; i++ {
		if err := c.Call("pane.send_text", map[string]any{"pane_id": "w1:p1", "text": big}, nil); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	var before protocol.PaneInfoResult
	c.Call("pane.get", map[string]any{"pane_id": "w1:p1"}, &before)
	if err := c.Call("events.wait", map[string]any{"allow_extensions": true, "match_event": map[string]any{"event": "pane_output_changed", "pane_id": "w1:p1",
		"min_revision": before.Pane.Revision + 3}, "timeout_ms": 5000}, nil); err != nil {
		t.Fatalf("the pane stopped applying output after the input flood: %v", err)
	}
}

// BenchmarkPing_BareFloor is the floor BenchmarkPing_OneConnection is
// measured against: a plain Go server on a Unix socket that reads a line,
// decodes the request, encodes the same pong and writes it back, on one
// goroutine, with no actors.
func BenchmarkPing_BareFloor(b *testing.B) {
	sock := filepath.Join(b.TempDir(), "floor.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var req protocol.Request
			if json.Unmarshal(line, &req) != nil {
				return
			}
			out, _ := protocol.EncodeSuccess(req.ID, protocol.Pong{Version: protocol.Version, Protocol: protocol.ProtocolVersion,
				Capabilities: &protocol.ServerCapabilities{LiveHandoff: true, DetachedServerDaemon: true}})
			w.Write(append(out, '\n'))
			w.Flush()
		}
	}()
	c, err := protocol.Connect(sock)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	line := []byte(`{"id":"1","method":"ping","params":{}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.RoundTrip(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPaneSendText_OneConnection is a pane's own call on one
// connection (an empty pane.send_text: the pane answers at once).
func BenchmarkPaneSendText_OneConnection(b *testing.B) {
	benchPaneRoundTrip(b, `{"id":"1","method":"pane.send_text","params":{"pane_id":"w1:p1","text":""}}`)
}
