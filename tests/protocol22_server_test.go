package tests

import (
	"encoding/json"
	"testing"
)

// TestProtocol22_PingSaysTwentyTwoWithItsCapabilities: a protocol-22
// client (which refuses a server without surface_interest and
// health_check) is served, and a protocol-20 request shape still works.
func TestProtocol22_PingSaysTwentyTwoWithItsCapabilities(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	resp := s.Call("ping", nil)
	if resp.Error != nil {
		t.Fatalf("ping: %+v", resp.Error)
	}
	var pong struct {
		Protocol     int            `json:"protocol"`
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := json.Unmarshal(resp.Result, &pong); err != nil {
		t.Fatal(err)
	}
	if pong.Protocol != 22 {
		t.Errorf("protocol = %d, want 22", pong.Protocol)
	}
	want := map[string]any{"live_handoff": true, "detached_server_daemon": true,
		"endpoint_protocol_generation": float64(1), "surface_interest": true, "health_check": true}
	for k, v := range want {
		if got, ok := pong.Capabilities[k]; !ok || got != v {
			t.Errorf("capabilities[%s] = %v (present %v), want %v", k, got, ok, v)
		}
	}
	// A protocol-20 call, unchanged.
	if r := s.Call("pane.list", map[string]any{}); r.Error != nil {
		t.Errorf("pane.list: %+v", r.Error)
	}
}
