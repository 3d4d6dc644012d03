package hardening

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A pane publishes its own output events, under the ids the session last
// told it: after pane.move to another workspace, an output match of a
// subscription made before the move names the pane, its workspace and
// its tab by their new ids, and after pane.rename an output change
// carries the new label.
func TestPane_EventsCarryTheIDsOfAMovedPane(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	s.WaitPrompt(t, "w1:p2")

	c := s.Dial(t)
	req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"subscriptions": []map[string]any{
		{"type": "pane.output_matched", "pane_id": "w1:p2", "source": "recent", "match": map[string]any{"type": "substring", "value": "moved-marker-42"}},
	}}})
	OK[map[string]any](t, DecodeResponse(t, MustRoundTrip(t, c, string(req))), "subscription_started")

	moved := OK[protocol.PaneMove](t, s.CallT(t, "pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "new_workspace"}}), "pane_move").MoveResult
	p := moved.Pane
	if p.PaneID == "w1:p2" || p.WorkspaceID == "w1" {
		t.Fatalf("moved pane is %s in %s; want a new id in a new workspace", p.PaneID, p.WorkspaceID)
	}
	s.Run(t, p.PaneID, "echo moved-marker-$((40+2))")
	line, err := c.ReadLine()
	if err != nil {
		t.Fatalf("no output_matched event: %v", err)
	}
	var ev struct {
		Event string `json:"event"`
		Data  struct {
			PaneID string                  `json:"pane_id"`
			Read   protocol.PaneReadResult `json:"read"`
		} `json:"data"`
	}
	if err := json.Unmarshal(line, &ev); err != nil || ev.Event != "pane.output_matched" {
		t.Fatalf("event %s (%v)", line, err)
	}
	if ev.Data.PaneID != p.PaneID || ev.Data.Read.PaneID != p.PaneID || ev.Data.Read.WorkspaceID != p.WorkspaceID || ev.Data.Read.TabID != p.TabID {
		t.Fatalf("output match after the move names pane %s (read: %s in %s, tab %s); want %s in %s, tab %s: %s",
			ev.Data.PaneID, ev.Data.Read.PaneID, ev.Data.Read.WorkspaceID, ev.Data.Read.TabID, p.PaneID, p.WorkspaceID, p.TabID, line)
	}

	// A rename: a wait for the next output change under the new label
	// is answered by the pane's own event.
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.rename", map[string]any{"pane_id": p.PaneID, "label": "renamed-pane"}), "pane_info")
	waiter := s.Dial(t)
	wait, _ := json.Marshal(map[string]any{"id": "w", "method": "events.wait", "params": map[string]any{
		"match_event": map[string]any{"event": "pane_output_changed", "pane_id": p.PaneID, "label": "renamed-pane"}, "timeout_ms": 20000, "allow_extensions": true}})
	if err := waiter.WriteLine(wait); err != nil {
		t.Fatal(err)
	}
	// Output until the wait is answered: it matches only what comes after
	// it reached the bus.
	stop, typed := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); <-typed }()
	go func() {
		defer close(typed)
		for {
			if typist, err := protocol.Connect(s.Socket); err == nil {
				typist.Call("pane.send_text", map[string]any{"pane_id": p.PaneID, "text": "echo after-rename\n"}, nil)
				typist.Close()
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	got := OK[protocol.WaitMatched](t, ReadResponse(t, waiter), "wait_matched")
	var changed struct {
		Data protocol.PaneOutputChangedEvent `json:"data"`
	}
	if err := json.Unmarshal(got.Event, &changed); err != nil || changed.Data.PaneID != p.PaneID {
		t.Fatalf("output change under the new label: %s (%v), want pane %s", got.Event, err, p.PaneID)
	}
}
