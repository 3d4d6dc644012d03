package events

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// waitEvent is the event a wait_matched answer carries.
type waitEvent struct {
	Event string `json:"event"`
	Data  struct {
		Revision uint64 `json:"revision"`
		PaneID   string `json:"pane_id"`
	} `json:"data"`
}

func waitMatched(t *testing.T, resp protocol.Response) waitEvent {
	t.Helper()
	got := OK[protocol.WaitMatched](t, resp, "wait_matched")
	var ev waitEvent
	if err := json.Unmarshal(got.Event, &ev); err != nil {
		t.Fatalf("wait_matched event %s: %v", got.Event, err)
	}
	return ev
}

// TestEventsWait_AlreadyTrueRules checks every waitable kind: the ones whose
// state already holds answer at once; the others time out while nothing
// happens and answer when the event comes.
func TestEventsWait_AlreadyTrueRules(t *testing.T) {
	s := StartServer(t)
	w1 := s.CreateWorkspace(t, map[string]any{"focus": true, "label": "alpha"})
	p1 := w1.RootPane.PaneID
	s.WaitPrompt(t, p1)
	p2 := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": p1, "direction": "right"}), "pane_info").Pane.PaneID
	t2 := OK[protocol.TabCreated](t, s.CallT(t, "tab.create", map[string]any{"workspace_id": w1.Workspace.WorkspaceID, "label": "beta"}), "tab_created")
	w2 := s.CreateWorkspace(t, nil)
	status := string(OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": p1}), "pane_info").Pane.AgentStatus)
	// Let the shells settle, so an output revision stays put while we look.
	s.WaitPrompt(t, p2)
	s.WaitPrompt(t, t2.RootPane.PaneID)
	s.WaitPrompt(t, w2.RootPane.PaneID)
	rev := func(p string) uint64 {
		return OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": p}), "pane_info").Pane.Revision
	}
	// settled is the pane's revision once its output has paused: a shell
	// still echoing the previous case's command would move it past a
	// revision the case is about to name.
	settled := func(p string) uint64 {
		last := rev(p)
		for range 50 {
			time.Sleep(300 * time.Millisecond)
			now := rev(p)
			if now == last {
				return now
			}
			last = now
		}
		t.Fatalf("pane %s never stopped changing", p)
		return 0
	}
	ws1, tab1 := w1.Workspace.WorkspaceID, w1.Tab.TabID

	immediate := []struct {
		name  string
		match func() map[string]any
	}{
		{"pane_agent_status_changed in its status", func() map[string]any {
			return map[string]any{"event": "pane_agent_status_changed", "pane_id": p1, "agent_status": status}
		}},
		{"pane_output_changed seen_revision behind", func() map[string]any {
			return map[string]any{"event": "pane_output_changed", "pane_id": p1, "seen_revision": rev(p1) - 1}
		}},
		{"pane_output_changed min_revision reached", func() map[string]any {
			return map[string]any{"event": "pane_output_changed", "pane_id": p1, "min_revision": rev(p1)}
		}},
		{"pane_focused on the focused pane", func() map[string]any {
			return map[string]any{"event": "pane_focused", "pane_id": p1}
		}},
		{"tab_focused on the tab on screen", func() map[string]any { return map[string]any{"event": "tab_focused", "tab_id": tab1} }},
		{"workspace_focused on the focused workspace", func() map[string]any {
			return map[string]any{"event": "workspace_focused", "workspace_id": ws1}
		}},
		{"workspace_renamed to its label", func() map[string]any {
			return map[string]any{"event": "workspace_renamed", "workspace_id": ws1, "label": "alpha"}
		}},
		{"tab_renamed to its label", func() map[string]any {
			return map[string]any{"event": "tab_renamed", "tab_id": t2.Tab.TabID, "label": "beta"}
		}},
	}
	// Focus p1 (the split may have focused p2).
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.focus", map[string]any{"pane_id": p1}), "pane_info")
	for _, c := range immediate {
		t.Run("immediate/"+c.name, func(t *testing.T) {
			m := c.match()
			start := time.Now()
			ev := waitMatched(t, s.CallT(t, "events.wait", map[string]any{"match_event": m, "timeout_ms": 5000, "allow_extensions": true}))
			if ev.Event != m["event"] || time.Since(start) > 2*time.Second {
				t.Fatalf("got %s after %v", ev.Event, time.Since(start))
			}
		})
	}

	waiting := []struct {
		name    string
		match   func() map[string]any
		trigger func()          // nil: only checked not to be already true
		check   func(waitEvent) // optional
	}{
		{"pane_output_changed waits for the next change", func() map[string]any {
			settled(p1)
			return map[string]any{"event": "pane_output_changed", "pane_id": p1}
		}, func() { s.Run(t, p1, "echo next-change") }, nil},
		{"pane_output_changed seen_revision current", func() map[string]any {
			return map[string]any{"event": "pane_output_changed", "pane_id": p1, "seen_revision": settled(p1)}
		}, func() { s.Run(t, p1, "echo past-seen") }, nil},
		{"pane_output_changed min_revision ahead", func() map[string]any {
			return map[string]any{"event": "pane_output_changed", "pane_id": p1, "min_revision": settled(p1) + 1}
		}, func() { s.Run(t, p1, "echo reach") }, nil},
		{"pane_agent_status_changed to another status", func() map[string]any {
			other := "working"
			if status == other {
				other = "idle"
			}
			return map[string]any{"event": "pane_agent_status_changed", "pane_id": p1, "agent_status": other}
		}, nil, nil},
		{"pane_focused on another pane", func() map[string]any { return map[string]any{"event": "pane_focused", "pane_id": p2} },
			func() { s.CallT(t, "pane.focus", map[string]any{"pane_id": p2}) }, nil},
		{"tab_focused on another tab", func() map[string]any { return map[string]any{"event": "tab_focused", "tab_id": t2.Tab.TabID} },
			func() { s.CallT(t, "tab.focus", map[string]any{"tab_id": t2.Tab.TabID}) }, nil},
		{"workspace_focused on another workspace", func() map[string]any {
			return map[string]any{"event": "workspace_focused", "workspace_id": w2.Workspace.WorkspaceID}
		}, func() { s.CallT(t, "workspace.focus", map[string]any{"workspace_id": w2.Workspace.WorkspaceID}) }, nil},
		{"workspace_renamed to another label", func() map[string]any {
			return map[string]any{"event": "workspace_renamed", "workspace_id": ws1, "label": "gamma"}
		}, func() { s.CallT(t, "workspace.rename", map[string]any{"workspace_id": ws1, "label": "gamma"}) }, nil},
		{"workspace_renamed without a label", func() map[string]any {
			return map[string]any{"event": "workspace_renamed", "workspace_id": ws1}
		}, func() { s.CallT(t, "workspace.rename", map[string]any{"workspace_id": ws1, "label": "delta"}) }, nil},
		{"tab_renamed to another label", func() map[string]any {
			return map[string]any{"event": "tab_renamed", "tab_id": t2.Tab.TabID, "label": "epsilon"}
		}, func() { s.CallT(t, "tab.rename", map[string]any{"tab_id": t2.Tab.TabID, "label": "epsilon"}) }, nil},
		{"workspace_created", func() map[string]any { return map[string]any{"event": "workspace_created"} },
			func() { s.CreateWorkspace(t, nil) }, nil},
		{"tab_created", func() map[string]any { return map[string]any{"event": "tab_created", "workspace_id": ws1} },
			func() { s.CallT(t, "tab.create", map[string]any{"workspace_id": ws1}) }, nil},
		{"pane_created", func() map[string]any { return map[string]any{"event": "pane_created"} },
			func() { s.CallT(t, "pane.split", map[string]any{"target_pane_id": p2, "direction": "down"}) }, nil},
		{"pane_closed", func() map[string]any { return map[string]any{"event": "pane_closed", "pane_id": p2} },
			func() { s.CallT(t, "pane.close", map[string]any{"pane_id": p2}) }, nil},
		{"pane_exited", func() map[string]any {
			return map[string]any{"event": "pane_exited", "pane_id": t2.RootPane.PaneID}
		}, func() { s.Run(t, t2.RootPane.PaneID, "exit") }, nil},
		// t2 closed with its pane above; a gone tab answers tab_not_found.
		{"tab_closed", func() map[string]any { return map[string]any{"event": "tab_closed", "tab_id": tab1} },
			nil, nil},
		{"workspace_closed", func() map[string]any {
			return map[string]any{"event": "workspace_closed", "workspace_id": w2.Workspace.WorkspaceID}
		}, func() { s.CallT(t, "workspace.close", map[string]any{"workspace_id": w2.Workspace.WorkspaceID}) }, nil},
		{"workspace_updated", func() map[string]any { return map[string]any{"event": "workspace_updated", "workspace_id": ws1} }, nil, nil},
		{"workspace_moved", func() map[string]any { return map[string]any{"event": "workspace_moved", "workspace_id": ws1} }, nil, nil},
		{"tab_moved", func() map[string]any { return map[string]any{"event": "tab_moved", "tab_id": tab1} }, nil, nil},
		{"pane_moved", func() map[string]any { return map[string]any{"event": "pane_moved", "pane_id": p1} }, nil, nil},
		{"pane_agent_detected", func() map[string]any { return map[string]any{"event": "pane_agent_detected", "pane_id": p1} }, nil, nil},
	}
	for _, c := range waiting {
		t.Run("waits/"+c.name, func(t *testing.T) {
			m := c.match()
			Fail(t, s.CallT(t, "events.wait", map[string]any{"match_event": m, "timeout_ms": 300, "allow_extensions": true}), "timeout")
			if c.trigger == nil {
				return
			}
			conn := s.Dial(t)
			defer conn.Close()
			line, _ := json.Marshal(map[string]any{"id": "w", "method": "events.wait", "params": map[string]any{"match_event": m, "timeout_ms": 10000, "allow_extensions": true}})
			if err := conn.WriteLine(line); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond) // a trigger before the wait registers would be missed: the test would time out, never pass wrongly
			c.trigger()
			ev := waitMatched(t, ReadResponse(t, conn))
			if ev.Event != m["event"] {
				t.Fatalf("matched %s", ev.Event)
			}
			if seen, ok := m["seen_revision"].(uint64); ok && ev.Data.Revision <= seen {
				t.Fatalf("revision %d is not past the seen %d", ev.Data.Revision, seen)
			}
		})
	}
}

func TestEventsWait_RevisionParamsRejected(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, nil)
	for _, m := range []map[string]any{
		{"event": "pane_output_changed", "pane_id": ws.RootPane.PaneID, "min_revision": 1, "seen_revision": 1},
		{"event": "pane_focused", "pane_id": ws.RootPane.PaneID, "seen_revision": 1},
	} {
		Fail(t, s.CallT(t, "events.wait", map[string]any{"match_event": m, "allow_extensions": true}), "invalid_params")
	}
}
