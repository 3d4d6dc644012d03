package protocol

import (
	"strings"
	"testing"
	"time"
)

// A table entry without an owner or a shape, or a wait whose params do
// not say how long it waits, is refused when the table is built.
func TestRouting_EntriesDeclareOwnerAndShape(t *testing.T) {
	for name, m := range map[string]Method{
		"has no owner":                 {Name: "x.a", Params: empty, Shape: ShapeAnswer},
		"has no shape":                 {Name: "x.b", Params: empty, Owner: OwnerSession},
		"do not say how long it waits": {Name: "x.c", Params: empty, Owner: OwnerSession, Shape: ShapeWait},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), m.Name) || !strings.Contains(r.(string), name) {
					t.Errorf("%s: recovered %v", m.Name, r)
				}
			}()
			buildTable([]Method{m})
		}()
	}
	for _, m := range Methods() {
		if m.Owner == ownerUnset || m.Shape == shapeUnset {
			t.Errorf("%s: owner %s, shape %s", m.Name, m.Owner, m.Shape)
		}
	}
}

// The shapes the connection acts on, from the table alone.
func TestRouting_Shapes(t *testing.T) {
	for name, want := range map[string]Shape{
		"ping": ShapeAnswer, "pane.read": ShapeAnswer, "events.subscribe": ShapeStream, "screen.subscribe": ShapeWatch,
		"pane.graphics.stream": ShapeFrames, "events.wait": ShapeWait, "pane.wait_for_output": ShapeWait,
		"agent.wait": ShapeWait, "agent.prompt": ShapeWait,
	} {
		if m, _ := Lookup(name); m.Shape != want {
			t.Errorf("%s: shape %s, want %s", name, m.Shape, want)
		}
	}
}

// A wait's timeout comes from its params; a prompt without its wait
// option does not wait.
func TestRouting_Waits(t *testing.T) {
	for _, c := range []struct {
		method, params string
		waits          bool
		timeout        time.Duration
	}{
		{"events.wait", `{"match_event":{"event":"workspace_created"},"timeout_ms":500}`, true, 500 * time.Millisecond},
		{"pane.wait_for_output", `{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"x"}}`, true, 0},
		{"agent.wait", `{"target":"w1:p1","timeout_ms":2000}`, true, 2 * time.Second},
		{"agent.prompt", `{"target":"w1:p1","text":"hi"}`, false, 0},
		{"agent.prompt", `{"target":"w1:p1","text":"hi","wait":{"timeout_ms":7000}}`, true, 7 * time.Second},
		{"pane.read", `{"pane_id":"w1:p1","source":"recent"}`, false, 0},
	} {
		p, err := DecodeParams(c.method, []byte(c.params))
		if err != nil {
			t.Fatalf("%s: %v", c.method, err)
		}
		var waits bool
		var timeout time.Duration
		if w, ok := p.(Waiting); ok {
			waits, timeout = w.Waits()
		}
		if waits != c.waits || timeout != c.timeout {
			t.Errorf("%s %s: waits %v %v, want %v %v", c.method, c.params, waits, timeout, c.waits, c.timeout)
		}
	}
}

// The web dashboard's page may read, watch, type, focus and close; it may
// not start programs or write files.
func TestRouting_Browser(t *testing.T) {
	for name, want := range map[string]Browser{
		"pane.read": BrowserAllowed, "pane.process_info": BrowserAllowed, "screen.subscribe": BrowserAllowed, "pane.close": BrowserAllowed,
		"pane.send_keys": BrowserTyping, "pane.split": BrowserDenied, "agent.start": BrowserDenied,
		"pane.record.start": BrowserDenied, "plugin.action.invoke": BrowserDenied,
	} {
		if m, _ := Lookup(name); m.Browser != want {
			t.Errorf("%s: browser %d, want %d", name, m.Browser, want)
		}
	}
}
