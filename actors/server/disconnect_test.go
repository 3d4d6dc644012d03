package server

import (
	"runtime"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// TestGateway_DisconnectCancelsWaits: clients that start waits and then
// hang up leave nothing behind (their connection actors and goroutines end).
func TestGateway_DisconnectCancelsWaits(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		t.Fatal(err)
	}
	// Let the server settle, then count.
	c.Call("ping", nil, nil)
	base := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		w, err := protocol.Connect(sock)
		if err != nil {
			t.Fatal(err)
		}
		req := `{"id":"w","method":"pane.wait_for_output","params":{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"never-printed"}}}`
		if i%2 == 1 {
			req = `{"id":"w","method":"events.wait","params":{"match_event":{"event":"workspace_closed","workspace_id":"w1"}}}`
		}
		w.WriteLine([]byte(req))
		c.Call("ping", nil, nil) // the wait is registered once this answers
		w.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+5 {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines: %d before, %d after 50 abandoned waits", base, runtime.NumGoroutine())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
