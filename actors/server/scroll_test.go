package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// settle waits until the pane's revision stops changing.
func settle(t *testing.T, c *protocol.Client, paneID string) {
	t.Helper()
	var last uint64
	stable := 0
	deadline := time.Now().Add(10 * time.Second)
	for stable < 3 {
		if time.Now().After(deadline) {
			t.Fatal("pane output did not settle")
		}
		var got protocol.PaneInfoResult
		if err := c.Call("pane.get", map[string]any{"pane_id": paneID}, &got); err != nil {
			t.Fatal(err)
		}
		if got.Pane.Revision == last {
			stable++
		} else {
			last, stable = got.Pane.Revision, 0
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func paneScroll(t *testing.T, c *protocol.Client, paneID string) protocol.PaneScrollInfo {
	t.Helper()
	var got protocol.PaneInfoResult
	if err := c.Call("pane.get", map[string]any{"pane_id": paneID}, &got); err != nil {
		t.Fatal(err)
	}
	if got.Pane.Scroll == nil {
		t.Fatal("pane.get has no scroll")
	}
	return *got.Pane.Scroll
}

// nextScroll reads the next pane.scroll_changed event.
func nextScroll(t *testing.T, sub *protocol.Client) protocol.PaneScrollChangedEvent {
	t.Helper()
	e := nextEvent(t, sub)
	if e.Event != protocol.SubScrollChanged {
		t.Fatalf("event %s %s, want %s", e.Event, e.Data, protocol.SubScrollChanged)
	}
	var ev protocol.PaneScrollChangedEvent
	if err := json.Unmarshal(e.Data, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestScreenScroll_ViewAndReset(t *testing.T) {
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		t.Fatal(err)
	}
	const id = "w1:p1"
	if err := c.Call("pane.send_input", map[string]any{"pane_id": id, "text": "i=1; while [ $i -le 200 ]; do echo line-$i; i=$((i+1)); done", "keys": []string{"Enter"}}, nil); err != nil {
		t.Fatal(err)
	}
	var read protocol.PaneRead
	if err := c.Call("pane.wait_for_output", map[string]any{"pane_id": id, "source": "recent", "match": map[string]any{"type": "substring", "value": "line-200"}, "timeout_ms": 10000}, &read); err != nil {
		t.Fatalf("wait for output: %v", err)
	}
	settle(t, c, id)

	before := paneScroll(t, c, id)
	if before.OffsetFromBottom != 0 || before.MaxOffsetFromBottom < 150 || before.ViewportRows == 0 {
		t.Fatalf("scroll before = %+v", before)
	}
	sub := subscribe(t, sock, `{"subscriptions":[{"type":"pane.scroll_changed","pane_id":"w1:p1"}]}`)

	// Scroll back 50 lines.
	var res protocol.ScreenScrolled
	if err := c.Call("screen.scroll", map[string]any{"pane_id": id, "lines": 50}, &res); err != nil {
		t.Fatalf("screen.scroll: %v", err)
	}
	want := protocol.PaneScrollInfo{OffsetFromBottom: 50, MaxOffsetFromBottom: before.MaxOffsetFromBottom, ViewportRows: before.ViewportRows}
	if res.PaneID != id || res.Scroll != want {
		t.Fatalf("screen.scroll = %+v, want %+v", res, want)
	}
	if got := paneScroll(t, c, id); got != want {
		t.Fatalf("pane.get scroll = %+v, want %+v", got, want)
	}
	if ev := nextScroll(t, sub); ev.PaneID != id || ev.WorkspaceID != "w1" || ev.Scroll != want {
		t.Fatalf("scroll_changed = %+v, want %+v", ev, want)
	}
	// Reads keep reading the live screen.
	if err := c.Call("pane.read", map[string]any{"pane_id": id, "source": "visible"}, &read); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read.Read.Text, "line-200") {
		t.Fatalf("visible read while scrolled back lacks the live screen: %q", read.Read.Text)
	}

	// Forward 20, then clamped at the top of the history.
	if err := c.Call("screen.scroll", map[string]any{"pane_id": id, "lines": -20}, &res); err != nil || res.Scroll.OffsetFromBottom != 30 {
		t.Fatalf("scroll forward = %+v, %v", res, err)
	}
	if ev := nextScroll(t, sub); ev.Scroll.OffsetFromBottom != 30 {
		t.Fatalf("scroll_changed = %+v, want offset 30", ev)
	}
	if err := c.Call("screen.scroll", map[string]any{"pane_id": id, "lines": 100000}, &res); err != nil || res.Scroll.OffsetFromBottom != before.MaxOffsetFromBottom {
		t.Fatalf("scroll to the top = %+v, %v", res, err)
	}
	if ev := nextScroll(t, sub); ev.Scroll.OffsetFromBottom != before.MaxOffsetFromBottom {
		t.Fatalf("scroll_changed = %+v, want the top", ev)
	}
	if err := c.Call("screen.scroll", map[string]any{"pane_id": id, "bottom": true}, &res); err != nil || res.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("scroll to the bottom = %+v, %v", res, err)
	}
	if ev := nextScroll(t, sub); ev.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("scroll_changed = %+v, want offset 0", ev)
	}

	// Typing returns the view to the bottom.
	if err := c.Call("screen.scroll", map[string]any{"pane_id": id, "lines": 50}, &res); err != nil || res.Scroll.OffsetFromBottom != 50 {
		t.Fatalf("screen.scroll = %+v, %v", res, err)
	}
	if ev := nextScroll(t, sub); ev.Scroll.OffsetFromBottom != 50 {
		t.Fatalf("scroll_changed = %+v, want offset 50", ev)
	}
	if err := c.Call("pane.send_text", map[string]any{"pane_id": id, "text": "x"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := paneScroll(t, c, id); got.OffsetFromBottom != 0 {
		t.Fatalf("pane.get scroll after typing = %+v, want offset 0", got)
	}
	if ev := nextScroll(t, sub); ev.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("scroll_changed after typing = %+v, want offset 0", ev)
	}

	// Errors: unknown pane, missing pane id.
	if err := c.Call("screen.scroll", map[string]any{"pane_id": "w9:p9", "lines": 1}, nil); protocol.AsError(err).Code != protocol.CodePaneNotFound {
		t.Fatalf("unknown pane: %v", err)
	}
	if err := c.Call("screen.scroll", map[string]any{"lines": 1}, nil); protocol.AsError(err).Code != protocol.CodeInvalidParams {
		t.Fatalf("missing pane id: %v", err)
	}
}
