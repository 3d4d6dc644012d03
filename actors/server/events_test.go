package server

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// subscribe opens a stream of the given subscriptions and reads the ack.
func subscribe(t *testing.T, sock string, params string) *protocol.Client {
	t.Helper()
	c, err := protocol.Connect(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ack, err := c.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":` + params + `}`))
	if err != nil || string(ack) != `{"id":"sub","result":{"type":"subscription_started"}}` {
		t.Fatalf("subscribe ack = %s, %v", ack, err)
	}
	return c
}

type eventLine struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
	Seq   uint64          `json:"seq"`
	Error *protocol.ErrorBody
}

func nextEvent(t *testing.T, c *protocol.Client) eventLine {
	t.Helper()
	c.Conn().SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := c.ReadLine()
	if err != nil {
		t.Fatalf("read event: %v", err)
	}
	var e eventLine
	if err := json.Unmarshal(line, &e); err != nil {
		t.Fatalf("decode %s: %v", line, err)
	}
	return e
}

var allKinds = func() string {
	var subs []string
	for _, k := range protocol.LifecycleKinds {
		if k != "pane_output_changed" && k != "pane_agent_status_changed" {
			subs = append(subs, fmt.Sprintf(`{"type":%q}`, strings.Replace(k, "_", ".", 1)))
		}
	}
	return `{"subscriptions":[` + strings.Join(subs, ",") + `]}`
}()

func TestEvents_LifecycleOrder(t *testing.T) {
	sock := startServer(t)
	sub := subscribe(t, sock, allKinds)
	c := dial(t, sock)
	steps := []struct {
		method string
		params any
		want   []string
	}{
		{"workspace.create", map[string]any{"cwd": "/tmp"}, []string{"workspace_created", "tab_created", "pane_created", "workspace_focused", "tab_focused", "pane_focused"}},
		{"pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right", "focus": true}, []string{"pane_created", "layout_updated", "pane_focused"}},
		{"pane.rename", map[string]any{"pane_id": "w1:p2", "label": "logs"}, []string{"pane_updated"}},
		{"tab.create", map[string]any{"workspace_id": "w1"}, []string{"tab_created", "pane_created", "workspace_updated"}},
		{"tab.rename", map[string]any{"tab_id": "w1:t2", "label": "two"}, []string{"tab_renamed"}},
		{"workspace.rename", map[string]any{"workspace_id": "w1", "label": "api"}, []string{"workspace_renamed"}},
		{"pane.swap", map[string]any{"source_pane_id": "w1:p1", "target_pane_id": "w1:p2"}, []string{"layout_updated"}},
		{"pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "new_workspace"}}, []string{"workspace_created", "tab_created", "pane_moved", "layout_updated", "layout_updated", "pane_focused"}},
		{"workspace.move", map[string]any{"workspace_id": "w2", "insert_index": 0}, []string{"workspace_moved"}},
		{"tab.close", map[string]any{"tab_id": "w1:t2"}, []string{"pane_closed", "tab_closed", "workspace_updated"}},
		{"workspace.close", map[string]any{"workspace_id": "w2"}, []string{"pane_closed", "tab_closed", "workspace_closed"}},
	}
	var last uint64
	for _, st := range steps {
		if err := c.Call(st.method, st.params, nil); err != nil {
			t.Fatalf("%s: %v", st.method, err)
		}
		for _, want := range st.want {
			e := nextEvent(t, sub)
			if e.Event != want {
				t.Fatalf("after %s: got %s, want %s", st.method, e.Event, want)
			}
			if !strings.Contains(string(e.Data), `"type":"`+want+`"`) {
				t.Fatalf("%s data lacks its type: %s", want, e.Data)
			}
			if e.Seq <= last {
				t.Fatalf("sequence went from %d to %d", last, e.Seq)
			}
			last = e.Seq
		}
	}
}

func TestEvents_SubscribeValidation(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	out, _ := c.RoundTrip([]byte(`{"id":"s","method":"events.subscribe","params":{"subscriptions":[{"type":"pane.created"},{"type":"pane.scroll_changed","pane_id":"w9:p9"}]}}`))
	if !strings.HasPrefix(string(out), `{"id":"s","error":{"code":"pane_not_found"`) {
		t.Fatalf("got %s", out)
	}
	c.Conn().SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.ReadLine(); err == nil {
		t.Fatal("connection stayed open after a rejected subscription")
	}
}

func TestEvents_OutputMatchedAndWaits(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		t.Fatal(err)
	}
	sub := subscribe(t, sock, `{"subscriptions":[{"type":"pane.output_matched","pane_id":"w1:p1","source":"recent","match":{"type":"regex","value":"ready-[0-9]+"}}]}`)
	if err := c.Call("pane.send_input", map[string]any{"pane_id": "w1:p1", "text": "echo ready-$((40+2))", "keys": []string{"Enter"}}, nil); err != nil {
		t.Fatal(err)
	}
	e := nextEvent(t, sub)
	if e.Event != "pane.output_matched" || !strings.Contains(string(e.Data), `ready-42"`) || strings.Contains(string(e.Data), `"type"`) {
		t.Fatalf("output_matched = %s %s", e.Event, e.Data)
	}

	// events.wait: a focus that already holds answers at once.
	var got protocol.WaitMatched
	if err := c.Call("events.wait", map[string]any{"match_event": map[string]any{"event": "pane_focused", "pane_id": "w1:p1"}}, &got); err != nil || !strings.Contains(string(got.Event), `"pane_focused"`) {
		t.Fatalf("immediate wait: %s %v", got.Event, err)
	}
	// A wait for a later event is answered when it happens.
	w := dial(t, sock)
	if err := w.WriteLine([]byte(`{"id":"w","method":"events.wait","params":{"match_event":{"event":"tab_renamed","tab_id":"w1:t1","label":"later"},"timeout_ms":10000}}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Call("tab.rename", map[string]any{"tab_id": "w1:t1", "label": "later"}, nil); err != nil {
		t.Fatal(err)
	}
	line, err := w.ReadLine()
	if err != nil || !strings.Contains(string(line), `"type":"wait_matched"`) || !strings.Contains(string(line), `"label":"later"`) {
		t.Fatalf("wait answer: %s %v", line, err)
	}
	// Output revision waits and timeouts.
	var pane protocol.PaneInfoResult
	c.Call("pane.get", map[string]any{"pane_id": "w1:p1"}, &pane)
	if err := c.Call("events.wait", map[string]any{"allow_extensions": true, "match_event": map[string]any{"event": "pane_output_changed", "pane_id": "w1:p1", "min_revision": pane.Pane.Revision}}, &got); err != nil {
		t.Fatalf("revision wait: %v", err)
	}
	err = c.Call("events.wait", map[string]any{"match_event": map[string]any{"event": "workspace_closed", "workspace_id": "w1"}, "timeout_ms": 50}, nil)
	if protocol.AsError(err).Code != protocol.CodeTimeout {
		t.Fatalf("timeout wait: %v", err)
	}
	err = c.Call("events.wait", map[string]any{"match_event": map[string]any{"event": "layout_updated"}}, nil)
	if protocol.AsError(err).Code != "unsupported_event_wait_match" {
		t.Fatalf("unsupported wait: %v", err)
	}
}

// TestEvents_StalledReaderIsCut: a subscriber that stops reading gets
// events_lost and is closed, while one that keeps reading gets everything.
func TestEvents_StalledReaderIsCut(t *testing.T) {
	sock := startServer(t)
	stalled := subscribe(t, sock, `{"subscriptions":[{"type":"workspace.renamed"}]}`)
	stalled.Conn().(*net.UnixConn).SetReadBuffer(4096)
	reader := subscribe(t, sock, `{"subscriptions":[{"type":"workspace.renamed"}]}`)
	c := dial(t, sock)
	c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil)
	const n = 4000
	label := strings.Repeat("x", 2000) // big events fill the stalled socket quickly
	done := make(chan int)
	go func() {
		got := 0
		for got < n {
			line, err := reader.ReadLine()
			if err != nil {
				break
			}
			if strings.Contains(string(line), "workspace_renamed") {
				got++
			}
		}
		done <- got
	}()
	for i := 0; i < n; i++ {
		if err := c.Call("workspace.rename", map[string]any{"workspace_id": "w1", "label": fmt.Sprintf("%s%d", label, i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-done; got != n {
		t.Fatalf("the reading subscriber got %d of %d events", got, n)
	}
	// Now drain the stalled one: some events, then events_lost, then EOF.
	stalled.Conn().SetReadDeadline(time.Now().Add(10 * time.Second))
	var last []byte
	for {
		line, err := stalled.ReadLine()
		if err != nil {
			break
		}
		last = line
	}
	if !strings.Contains(string(last), `"id":"sub","error":{"code":"events_lost"`) {
		t.Fatalf("stalled subscriber's last line: %.200s", last)
	}
}

func TestEvents_SinceSeqResumes(t *testing.T) {
	sock := startServer(t)
	first := subscribe(t, sock, `{"subscriptions":[{"type":"tab.renamed"}]}`)
	c := dial(t, sock)
	c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil)
	for _, l := range []string{"a", "b", "c"} {
		c.Call("tab.rename", map[string]any{"tab_id": "w1:t1", "label": l}, nil)
	}
	e := nextEvent(t, first)
	resumed := subscribe(t, sock, fmt.Sprintf(`{"subscriptions":[{"type":"tab.renamed"}],"since_seq":%d}`, e.Seq))
	for _, want := range []string{`"label":"b"`, `"label":"c"`} {
		if got := nextEvent(t, resumed); !strings.Contains(string(got.Data), want) {
			t.Fatalf("resumed stream: %s, want %s", got.Data, want)
		}
	}
}
