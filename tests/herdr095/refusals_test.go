package herdr095

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_RefusalsAreHerdrs: where Herdr 0.9.5 refuses, so does
// this server, with Herdr's code and the request's id: events.wait on
// pane_output_changed without our opt-in, client_shell.surface.set from
// a plain API connection, dismissals of release notes or an announcement
// the server does not hold.
func TestHerdr095_RefusalsAreHerdrs(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	for _, c := range []struct{ line, want string }{
		{`{"id":"w1","method":"events.wait","params":{"match_event":{"event":"pane_output_changed","pane_id":"w1:p1"}}}`,
			`{"id":"w1","error":{"code":"unsupported_event_wait_match","message":"events.wait on pane_output_changed is an extension over Herdr: pass \"allow_extensions\": true"}}`},
		{`{"id":"s1","method":"client_shell.surface.set","params":{"active":true}}`,
			`{"id":"s1","error":{"code":"connection_local_only","message":"client_shell.surface.set is only available to a client shell connection (one that has called screen.subscribe)"}}`},
		{`{"id":"r1","method":"release_notes.dismiss","params":{"version":"0.9.1"}}`,
			`{"id":"r1","error":{"code":"stale_release_notes","message":"the release notes are no longer current (this server holds those of 0.9.5)"}}`},
		{`{"id":"r2","method":"release_notes.dismiss","params":{"version":"0.9.5"}}`, `{"id":"r2","result":{"type":"ok"}}`},
		{`{"id":"a1","method":"product_announcement.dismiss","params":{"id":"probe","version":"0.9.5"}}`,
			`{"id":"a1","error":{"code":"stale_announcement","message":"the product announcement is no longer current (this server holds none)"}}`},
	} {
		if got := wire(t, s, c.line); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.line, got, c.want)
		}
	}
}

// TestHerdr095_OutputWaitWithOptIn: with "allow_extensions": true the
// extension wait is served as before (a min_revision already reached
// answers at once).
func TestHerdr095_OutputWaitWithOptIn(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	ws := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir()})
	p := ws.RootPane.PaneID
	got := s.Call("events.wait", map[string]any{"allow_extensions": true, "timeout_ms": 10000,
		"match_event": map[string]any{"event": "pane_output_changed", "pane_id": p, "min_revision": 0}})
	OK[protocol.WaitMatched](t, got, "wait_matched")
}

// TestHerdr095_SurfaceSetFromAClientShell: a connection that watches
// screens is a client shell, and its client_shell.surface.set is served.
func TestHerdr095_SurfaceSetFromAClientShell(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	ws := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir()})
	c := s.Dial(t)
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "sub", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{ws.RootPane.PaneID}}})
	if err := c.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteLine([]byte(`{"id":"s2","method":"client_shell.surface.set","params":{"active":false}}`)); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := c.ReadLine()
		if err != nil {
			t.Fatalf("no answer to client_shell.surface.set: %v", err)
		}
		if bytes.HasPrefix(line, []byte(`{"id":"s2"`)) {
			if want := `{"id":"s2","result":{"type":"client_shell_surface_set","active":false,"projection_revision":1}}`; string(line) != want {
				t.Fatalf("got %s\nwant %s", line, want)
			}
			return
		}
	}
}

// TestHerdr095_ErrorsKeepTheID: a line that cannot be decoded whole is
// answered with the id it begins with (Herdr 0.9.2); an unknown method
// and bad params too; a line with no readable id gets "".
func TestHerdr095_ErrorsKeepTheID(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	for _, c := range []struct{ line, wantHead string }{
		{`{"id":"cut","method":"ping","params":{`, `{"id":"cut","error":{"code":"invalid_request","message":"invalid request: `},
		{`{"id":"u1","method":"no.such","params":{}}`, `{"id":"u1","error":{"code":"`},
		{`{"id":"p1","method":"pane.get","params":{}}`, `{"id":"p1","error":{"code":"`},
		{`{"id":"e\u0031","method":"ping"`, `{"id":"e1","error":{"code":"invalid_request",`},
		{`{"method":"ping","id":"late",`, `{"id":"","error":{"code":"invalid_request",`},
		{`nonsense`, `{"id":"","error":{"code":"invalid_request",`},
	} {
		if got := wire(t, s, c.line); !strings.HasPrefix(got, c.wantHead) {
			t.Errorf("%s\n got %s\nwant it to begin %s", c.line, got, c.wantHead)
		}
	}
	// A line past the 1 MiB cap: its id still comes back.
	c := s.Dial(t)
	long := `{"id":"big","method":"pane.send_text","params":{"pane_id":"w1:p1","text":"` + strings.Repeat("x", protocol.MaxLineBytes+10) + `"}}`
	go func() { _ = c.WriteLine([]byte(long)) }()
	line, err := c.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"big","error":{"code":"invalid_request","message":"invalid request: line exceeds 1048576 bytes"}}`; string(line) != want {
		t.Fatalf("got %s\nwant %s", line, want)
	}
}
