package protocol22

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// legacyTopology builds w1 {t1: p1 | p2, t2: p3} and w2 {t1: p1}, so that
// every legacy form (surface.md §3) names something other than "the first".
type legacyTopology struct {
	s *Server
}

func startLegacyTopology(t *testing.T) legacyTopology {
	t.Helper()
	s := StartServer(t)
	w1 := s.CreateWorkspace(t, map[string]any{"focus": true})
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": w1.RootPane.PaneID, "direction": "right"}), "pane_info")
	OK[protocol.TabCreated](t, s.CallT(t, "tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	s.CreateWorkspace(t, nil)
	got := s.PaneIDs(t)
	want := []string{"w1:p1", "w1:p2", "w1:p3", "w2:p1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("panes %v, want %v", got, want)
	}
	return legacyTopology{s: s}
}

// waitWhileToggling sends events.wait with match and repeats trigger until
// the wait answers (a trigger that reaches the session before the wait is
// simply repeated), then returns the matched event's data.
func waitWhileToggling(t *testing.T, s *Server, match map[string]any, trigger func(i int)) map[string]any {
	t.Helper()
	conn := s.Dial(t)
	line, _ := json.Marshal(map[string]any{"id": "w", "method": "events.wait", "params": map[string]any{"match_event": match, "timeout_ms": 10000}})
	if err := conn.WriteLine(line); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		raw []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		raw, err := conn.ReadLine()
		done <- answer{raw, err}
	}()
	for i := 0; ; i++ {
		trigger(i)
		select {
		case a := <-done:
			if a.err != nil {
				t.Fatalf("read events.wait answer: %v", a.err)
			}
			got := OK[protocol.WaitMatched](t, DecodeResponse(t, a.raw), "wait_matched")
			var ev struct {
				Event string         `json:"event"`
				Data  map[string]any `json:"data"`
			}
			if err := json.Unmarshal(got.Event, &ev); err != nil {
				t.Fatalf("wait_matched event %s: %v", got.Event, err)
			}
			if ev.Event != match["event"] {
				t.Fatalf("matched %s, want %s", ev.Event, match["event"])
			}
			return ev.Data
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestE2E_LegacyIDs_EventsWait: a wait names its workspace, tab or pane in
// any legacy form and matches the event, which carries canonical ids; the
// wait goes through the bus (the state does not already hold).
func TestE2E_LegacyIDs_EventsWait(t *testing.T) {
	lt := startLegacyTopology(t)
	s := lt.s
	// focusCase: waiting for the focus of want, named id; unfocus moves the
	// focus away first so the state does not already hold, and each
	// trigger moves it away and back.
	type focusCase struct{ event, field, method, result, id, want, other string }
	var cases []focusCase
	for _, id := range []string{"w2", "w_2", "2"} {
		cases = append(cases, focusCase{"workspace_focused", "workspace_id", "workspace.focus", "workspace_info", id, "w2", "w1"})
	}
	for _, id := range []string{"w1:t2", "t_w1_2", "w1:2"} {
		cases = append(cases, focusCase{"tab_focused", "tab_id", "tab.focus", "tab_info", id, "w1:t2", "w1:t1"})
	}
	for _, id := range []string{"w1:p2", "p_w1_2", "p_2", "w1-2"} {
		cases = append(cases, focusCase{"pane_focused", "pane_id", "pane.focus", "pane_info", id, "w1:p2", "w1:p1"})
	}
	for _, c := range cases {
		t.Run(c.event+"/"+c.id, func(t *testing.T) {
			focus := func(id string) {
				if r := s.CallT(t, c.method, map[string]any{c.field: id}); r.Error != nil {
					t.Fatalf("%s %s: %s", c.method, id, r.Error.Code)
				}
			}
			focus(c.other)
			data := waitWhileToggling(t, s, map[string]any{"event": c.event, c.field: c.id}, func(int) {
				focus(c.other)
				focus(c.want)
			})
			if data[c.field] != c.want {
				t.Fatalf("event %s = %v, want %s", c.field, data[c.field], c.want)
			}
		})
	}

	// Renames are not focus: the same resolution holds for every event.
	t.Run("workspace_renamed/w_2", func(t *testing.T) {
		data := waitWhileToggling(t, s, map[string]any{"event": "workspace_renamed", "workspace_id": "w_2"}, func(i int) {
			OK[protocol.WorkspaceInfoResult](t, s.CallT(t, "workspace.rename", map[string]any{"workspace_id": "w2", "label": "ws-" + string(rune('a'+i%26))}), "workspace_info")
		})
		if data["workspace_id"] != "w2" {
			t.Fatalf("renamed %v", data["workspace_id"])
		}
	})
	t.Run("tab_renamed/t_w1_2", func(t *testing.T) {
		data := waitWhileToggling(t, s, map[string]any{"event": "tab_renamed", "tab_id": "t_w1_2"}, func(i int) {
			OK[protocol.TabInfoResult](t, s.CallT(t, "tab.rename", map[string]any{"tab_id": "w1:t2", "label": "tab-" + string(rune('a'+i%26))}), "tab_info")
		})
		if data["tab_id"] != "w1:t2" {
			t.Fatalf("renamed %v", data["tab_id"])
		}
	})

	// An id naming nothing answers the entity's not-found code at once.
	for _, c := range []struct{ event, field, id, code string }{
		{"workspace_focused", "workspace_id", "w_9", protocol.CodeWorkspaceNotFound},
		{"workspace_focused", "workspace_id", "9", protocol.CodeWorkspaceNotFound},
		{"workspace_closed", "workspace_id", "w9", protocol.CodeWorkspaceNotFound},
		{"tab_focused", "tab_id", "t_w1_9", protocol.CodeTabNotFound},
		{"tab_focused", "tab_id", "w1:9", protocol.CodeTabNotFound},
		{"tab_created", "workspace_id", "w_9", protocol.CodeWorkspaceNotFound},
		{"pane_focused", "pane_id", "w1-9", protocol.CodePaneNotFound},
		{"pane_focused", "pane_id", "p_w1_9", protocol.CodePaneNotFound},
		{"pane_focused", "pane_id", "p_9", protocol.CodePaneNotFound},
	} {
		Fail(t, s.CallT(t, "events.wait", map[string]any{"match_event": map[string]any{"event": c.event, c.field: c.id}, "timeout_ms": 5000}), c.code)
	}
	// The entity a created-wait waits for need not exist yet.
	Fail(t, s.CallT(t, "events.wait", map[string]any{"match_event": map[string]any{"event": "workspace_created", "workspace_id": "w3"}, "timeout_ms": 200}), protocol.CodeTimeout)
	Fail(t, s.CallT(t, "events.wait", map[string]any{"match_event": map[string]any{"event": "tab_created", "tab_id": "w1:t3"}, "timeout_ms": 200}), protocol.CodeTimeout)
}

// TestE2E_LegacyIDs_Subscribe: subscription filters take every legacy pane
// form, and what they stream names the pane canonically.
func TestE2E_LegacyIDs_Subscribe(t *testing.T) {
	lt := startLegacyTopology(t)
	s := lt.s
	status := string(OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane.AgentStatus)
	for _, id := range []string{"w1:p2", "p_w1_2", "p_2", "w1-2"} {
		t.Run("agent_status_changed/"+id, func(t *testing.T) {
			c := s.Dial(t)
			req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"subscriptions": []map[string]any{
				{"type": "pane.agent_status_changed", "pane_id": id, "agent_status": status},
				{"type": "pane.scroll_changed", "pane_id": id},
			}}})
			OK[map[string]any](t, DecodeResponse(t, MustRoundTrip(t, c, string(req))), "subscription_started")
			line, err := c.ReadLine()
			if err != nil {
				t.Fatalf("no immediate status event: %v", err)
			}
			var ev struct {
				Event string `json:"event"`
				Data  struct {
					PaneID      string `json:"pane_id"`
					WorkspaceID string `json:"workspace_id"`
				} `json:"data"`
			}
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatalf("event %s: %v", line, err)
			}
			if ev.Event != "pane.agent_status_changed" || ev.Data.PaneID != "w1:p2" || ev.Data.WorkspaceID != "w1" {
				t.Fatalf("immediate event %s", line)
			}
		})
	}
	t.Run("output_matched/w1-3", func(t *testing.T) {
		c := s.Dial(t)
		req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"subscriptions": []map[string]any{
			{"type": "pane.output_matched", "pane_id": "w1-3", "source": "recent", "match": map[string]any{"type": "substring", "value": "legacy-marker-42"}},
		}}})
		OK[map[string]any](t, DecodeResponse(t, MustRoundTrip(t, c, string(req))), "subscription_started")
		s.Run(t, "w1:p3", "echo legacy-marker-$((40+2))")
		line, err := c.ReadLine()
		if err != nil {
			t.Fatalf("no output_matched event: %v", err)
		}
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				PaneID string `json:"pane_id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(line, &ev); err != nil || ev.Event != "pane.output_matched" || ev.Data.PaneID != "w1:p3" {
			t.Fatalf("event %s (%v)", line, err)
		}
	})
	for _, id := range []string{"w1-9", "p_w1_9", "p_9"} {
		c := s.Dial(t)
		req, _ := json.Marshal(map[string]any{"id": "sub", "method": "events.subscribe", "params": map[string]any{"subscriptions": []map[string]any{
			{"type": "pane.scroll_changed", "pane_id": id},
		}}})
		Fail(t, DecodeResponse(t, MustRoundTrip(t, c, string(req))), protocol.CodePaneNotFound)
	}
}

// TestE2E_LegacyIDs_CLI: the CLI passes legacy ids through, and answers
// carry canonical ids.
func TestE2E_LegacyIDs_CLI(t *testing.T) {
	lt := startLegacyTopology(t)
	s := lt.s
	get := func(args ...string) protocol.Response {
		t.Helper()
		out, errOut, code := s.CLIT(t, args...)
		if code != 0 {
			t.Fatalf("herdr %v: exit %d, stderr %s", args, code, errOut)
		}
		return CLIResponse(t, out)
	}
	for _, id := range []string{"w_2", "2"} {
		if got := OK[protocol.WorkspaceInfoResult](t, get("workspace", "get", id), "workspace_info").Workspace.WorkspaceID; got != "w2" {
			t.Errorf("workspace get %s = %s", id, got)
		}
	}
	for _, id := range []string{"t_w1_2", "w1:2", "t_w1_1"} {
		want := "w1:t" + id[len(id)-1:]
		if got := OK[protocol.TabInfoResult](t, get("tab", "get", id), "tab_info").Tab.TabID; got != want {
			t.Errorf("tab get %s = %s, want %s", id, got, want)
		}
	}
	for _, id := range []string{"p_w1_2", "p_2", "w1-2"} {
		if got := OK[protocol.PaneInfoResult](t, get("pane", "get", id), "pane_info").Pane.PaneID; got != "w1:p2" {
			t.Errorf("pane get %s = %s", id, got)
		}
	}
	s.Run(t, "w1:p1", "echo cli-legacy-$((6*7))")
	s.WaitLine(t, "w1:p1", "cli-legacy-42")
	out, errOut, code := s.CLIT(t, "pane", "read", "w1-1", "--source", "recent")
	if code != 0 || !HasLine(out, "cli-legacy-42") {
		t.Fatalf("pane read w1-1: exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}
	if _, errOut, code := s.CLIT(t, "pane", "get", "w1-9"); code != 1 || !strings.Contains(errOut, protocol.CodePaneNotFound) {
		t.Fatalf("pane get w1-9: exit %d, stderr %s", code, errOut)
	}
	if _, errOut, code := s.CLIT(t, "tab", "get", "t_w1_9"); code != 1 || !strings.Contains(errOut, protocol.CodeTabNotFound) {
		t.Fatalf("tab get t_w1_9: exit %d, stderr %s", code, errOut)
	}
}

// TestE2E_LegacyIDs_WaitTabCreated: a tab_created wait naming a tab that
// does not exist yet in a legacy form (<ws>:<idx>, t_<ws>_<idx>, with the
// workspace in a legacy form too) matches the tab then created at that
// position, named canonically.
func TestE2E_LegacyIDs_WaitTabCreated(t *testing.T) {
	lt := startLegacyTopology(t) // w1 has w1:t1 and w1:t2
	s := lt.s
	for _, form := range []func(n int) string{
		func(n int) string { return "w1:" + strconv.Itoa(n) },
		func(n int) string { return "t_w1_" + strconv.Itoa(n) },
		func(n int) string { return "t_w_1_" + strconv.Itoa(n) },
	} {
		if id, want, got := waitTabCreated(t, s, form); got != want {
			t.Fatalf("a wait for %s matched %q, want %s", id, got, want)
		}
	}
}

// waitTabCreated waits for the creation of w1's next tab, named by form
// with its position, while creating it; it returns the id waited for, the
// canonical id of the tab created and the tab id of the event matched.
// The wait and the create go down two connections, so the create may reach
// the session first (the wait then names a tab that exists, and times
// out): then it tries again with the next position.
func waitTabCreated(t *testing.T, s *Server, form func(n int) string) (id, want, got string) {
	t.Helper()
	tabs := func() int {
		return len(OK[protocol.TabList](t, s.CallT(t, "tab.list", map[string]any{"workspace_id": "w1"}), "tab_list").Tabs)
	}
	for attempt := 0; attempt < 8; attempt++ {
		n := tabs() + 1
		id = form(n)
		conn := s.Dial(t)
		_ = conn.Conn().SetDeadline(time.Now().Add(WaitTimeout))
		line, _ := json.Marshal(map[string]any{"id": "w", "method": "events.wait", "params": map[string]any{"match_event": map[string]any{"event": "tab_created", "tab_id": id}, "timeout_ms": 1000}})
		if err := conn.WriteLine(line); err != nil {
			t.Fatal(err)
		}
		tabs() // a round trip through the session, which the wait likely beats
		want = OK[protocol.TabCreated](t, s.CallT(t, "tab.create", map[string]any{"workspace_id": "w1"}), "tab_created").Tab.TabID
		r := ReadResponse(t, conn)
		conn.Close()
		if r.Error != nil && r.Error.Code == protocol.CodeTimeout {
			continue // the create came first
		}
		m := OK[protocol.WaitMatched](t, r, "wait_matched")
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				Tab struct {
					TabID string `json:"tab_id"`
				} `json:"tab"`
			} `json:"data"`
		}
		if err := json.Unmarshal(m.Event, &ev); err != nil || ev.Event != "tab_created" {
			t.Fatalf("wait for %s matched %s (%v)", id, m.Event, err)
		}
		return id, want, ev.Data.Tab.TabID
	}
	t.Fatalf("a wait for tab_created of %s never matched the tab created there (%s)", id, want)
	return
}
