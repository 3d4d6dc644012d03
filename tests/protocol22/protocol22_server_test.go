package protocol22

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
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

// screenConn is a raw connection that subscribed to a pane's screen.
type screenConn struct {
	t *testing.T
	c *protocol.Client
}

func subscribeScreen(t *testing.T, s *Server, pane string) *screenConn {
	t.Helper()
	c := s.Dial(t)
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "sub", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{pane}}})
	if err := c.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	sc := &screenConn{t: t, c: c}
	sc.until("the subscription's answer", func(line []byte) bool { return bytes.HasPrefix(line, []byte(`{"id":"sub"`)) })
	return sc
}

// until reads lines until done says stop; it returns them all.
func (sc *screenConn) until(what string, done func(line []byte) bool) [][]byte {
	sc.t.Helper()
	var lines [][]byte
	for {
		line, err := sc.c.ReadLine()
		if err != nil {
			sc.t.Fatalf("waiting for %s: %v (read %d lines)", what, err, len(lines))
		}
		ValidateIfResponse(sc.t, line)
		lines = append(lines, line)
		if done(line) {
			return lines
		}
	}
}

// call sends a request and returns the lines read up to its answer.
func (sc *screenConn) call(id, method string, params any) [][]byte {
	sc.t.Helper()
	req, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := sc.c.WriteLine(req); err != nil {
		sc.t.Fatal(err)
	}
	return sc.until("the answer to "+method, func(line []byte) bool { return bytes.HasPrefix(line, []byte(`{"id":"`+id+`"`)) })
}

func frameOf(line []byte) (protocol.ScreenFrame, bool) {
	var ev struct {
		Event string               `json:"event"`
		Data  protocol.ScreenFrame `json:"data"`
	}
	if json.Unmarshal(line, &ev) != nil || ev.Event != protocol.ScreenFrameEvent {
		return protocol.ScreenFrame{}, false
	}
	return ev.Data, true
}

// TestProtocol22_SurfaceOffHoldsScreensAndOnSendsAFullFrame: of two
// connections streaming a pane, the one whose surface is off gets no
// frames of what the pane prints; turning it on brings a full frame at
// once, with what was printed meanwhile.
func TestProtocol22_SurfaceOffHoldsScreensAndOnSendsAFullFrame(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "e2e")
	OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"cwd": h.Dir}), "workspace_created")
	p := "w1:p1"
	s.WaitPrompt(t, p)
	shown, hidden := subscribeScreen(t, s, p), subscribeScreen(t, s, p)

	lines := hidden.call("off", "client_shell.surface.set", map[string]any{"active": false})
	var set protocol.ClientShellSurfaceSet
	if resp := DecodeResponse(t, lines[len(lines)-1]); resp.Error != nil {
		t.Fatalf("client_shell.surface.set: %+v", resp.Error)
	} else if err := json.Unmarshal(resp.Result, &set); err != nil || set.Active || set.ProjectionRevision != 1 {
		t.Fatalf("answer %s, want active false at projection_revision 1", resp.Result)
	}

	// The typed line holds "sur%sker", only the output "surface-marker".
	s.Run(t, p, `printf 'sur%sker\n' face-mar`)
	const marker = "surface-marker"
	shown.until("the marker in a frame", func(line []byte) bool {
		_, ok := frameOf(line)
		return ok && bytes.Contains(line, []byte(marker))
	})
	// Whatever the pane sent the hidden connection with that frame is in
	// its mailbox before this ping: its answer comes after it would be.
	for _, line := range hidden.call("barrier", "ping", nil) {
		if _, ok := frameOf(line); ok && bytes.Contains(line, []byte(marker)) {
			t.Fatalf("the connection whose surface is off got a frame of the new output: %.200s", line)
		}
	}

	lines = hidden.call("on", "client_shell.surface.set", map[string]any{"active": true})
	if resp := DecodeResponse(t, lines[len(lines)-1]); resp.Error != nil {
		t.Fatalf("client_shell.surface.set: %+v", resp.Error)
	} else if err := json.Unmarshal(resp.Result, &set); err != nil || !set.Active || set.ProjectionRevision != 2 {
		t.Fatalf("answer %s, want active true at projection_revision 2", resp.Result)
	}
	all := append(lines, hidden.until("a frame with the marker", func(line []byte) bool {
		_, ok := frameOf(line)
		return ok && bytes.Contains(line, []byte(marker))
	})...)
	var frames []protocol.ScreenFrame
	for _, line := range all {
		if f, ok := frameOf(line); ok {
			frames = append(frames, f)
		}
	}
	if len(frames) == 0 || !frames[0].Full {
		t.Fatalf("the first frame after turning the surface on is not full (%d frames)", len(frames))
	}
}

// TestProtocol22_DismissalsAreKeptAcrossARestart: the release notes
// dismissed before a restart are still in the record after it (0600; a
// second dismissal records nothing new); stale ones and an announcement
// the server does not hold are refused, and bad params too, with nothing
// recorded.
func TestProtocol22_DismissalsAreKeptAcrossARestart(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "e2e")
	OK[protocol.OK](t, s.Call("release_notes.dismiss", map[string]any{"version": protocol.Version}), "ok")
	// What the server does not hold is refused stale (Herdr 0.9), not recorded.
	Fail(t, s.Call("release_notes.dismiss", map[string]any{"version": "0.9.0"}), protocol.CodeStaleReleaseNotes)
	Fail(t, s.Call("product_announcement.dismiss", map[string]any{"id": "task-board", "version": "0.9.0"}), protocol.CodeStaleAnnouncement)
	for _, bad := range []struct {
		method string
		params map[string]any
	}{
		{"release_notes.dismiss", map[string]any{}},
		{"release_notes.dismiss", map[string]any{"version": "../../etc"}},
		{"release_notes.dismiss", map[string]any{"version": strings.Repeat("1.", 40) + "1"}},
		{"product_announcement.dismiss", map[string]any{"version": "0.9.0"}},
		{"product_announcement.dismiss", map[string]any{"id": "a b\x1b", "version": "0.9.0"}},
	} {
		Fail(t, s.Call(bad.method, bad.params), protocol.CodeInvalidParams)
	}
	OK[protocol.OK](t, s.Call("server.stop", nil), "ok")
	s.WaitExit(t)

	s = h.Start(t, "e2e")
	OK[protocol.OK](t, s.Call("release_notes.dismiss", map[string]any{"version": protocol.Version}), "ok") // again: ok, recorded once
	path := filepath.Join(filepath.Dir(h.Socket("e2e")), "dismissed.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	var rec struct {
		ReleaseNotes         []string            `json:"release_notes"`
		ProductAnnouncements []map[string]string `json:"product_announcements"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if !slices.Equal(rec.ReleaseNotes, []string{protocol.Version}) || len(rec.ProductAnnouncements) != 0 {
		t.Errorf("record after the restart: %s", b)
	}
}

// TestProtocol22_HeadlessPanesStartAt120x40: with no client attached, a
// new pane's terminal is 120×40 (Herdr 0.9), and [server] headless_cols
// and headless_rows set it.
func TestProtocol22_HeadlessPanesStartAt120x40(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ config, want string }{
		{"", "40 120"},
		{"[server]\nheadless_cols = 90\nheadless_rows = 30\n", "30 90"},
	} {
		h := NewHome(t)
		h.WriteConfig(t, c.config)
		s := h.Start(t, "e2e")
		OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"cwd": h.Dir}), "workspace_created")
		s.Run(t, "w1:p1", "stty size")
		s.WaitLine(t, "w1:p1", c.want)
	}
}

// TestProtocol22_LegacyRawPaneID: p_<raw> names the pane with that raw id
// (the order panes were made in, session-wide, as in Herdr), also when
// several workspaces have a pane p1; through the socket and the CLI.
func TestProtocol22_LegacyRawPaneID(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "e2e")
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	for raw, want := range map[string]string{"p_1": "w1:p1", "p_2": "w2:p1", "p_w2_2": "w2:p1"} {
		got := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": raw}), "pane_info").Pane.PaneID
		if got != want {
			t.Errorf("pane.get %s = %s, want %s", raw, got, want)
		}
	}
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "p_3"}), protocol.CodePaneNotFound)
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "p_w1_2"}), protocol.CodePaneNotFound) // raw 2 is in w2, and w1 has no p2
	out, errOut, code := s.CLI("pane", "get", "p_1")
	if code != 0 || !strings.Contains(out, `"pane_id":"w1:p1"`) {
		t.Errorf("herdr pane get p_1: exit %d, %s%s", code, out, errOut)
	}
}

// TestProtocol22_FlagWithoutValueSaysWhatItWants: `herdr --remote` with no
// target says, in one line and exit 2, that it wants an ssh TARGET (not
// Go's "flag needs an argument"), and so does any flag left without its
// value.
func TestProtocol22_FlagWithoutValueSaysWhatItWants(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--remote"}, "herdr: --remote needs TARGET: attach to the herdr server on ssh host TARGET"},
		{[]string{"pane", "read", "w1:p1", "--lines"}, "herdr: --lines needs a uint32 value: how many lines"},
	} {
		_, errOut, code := RunCLI(t, h.Env, c.args...)
		if code != 2 || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "flag needs an argument") {
			t.Errorf("herdr %s: exit %d, stderr %q; want exit 2 and one line starting %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

// protocol22Methods are the twelve methods protocol 22 added.
var protocol22Methods = []string{"pane.scroll", "pane.selection.read", "pane.copy_motion", "pane.copy_search",
	"pane.edit_scrollback", "pane.link.resolve", "pane.link.activate", "integration.list", "command.invoke",
	"client_shell.surface.set", "product_announcement.dismiss", "release_notes.dismiss"}

// TestProtocol22_APISchema: bare `herdr api schema` is a summary; --json
// is the whole document: protocol 22, exactly the methods of the table
// (this server's extensions marked x-extension, every method of Herdr's
// reference schema among the rest), and the five sections, whose event
// sections hold each event kind and validate a real event line.
func TestProtocol22_APISchema(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	out, errOut, code := RunCLI(t, h.Env, "api", "schema")
	if code != 0 || !strings.HasPrefix(out, "Herdr API schema: protocol 22") || len(out) > 2000 || !strings.Contains(out, "--json") {
		t.Errorf("bare api schema: exit %d, %d bytes: %s%s", code, len(out), out, errOut)
	}
	out, errOut, code = RunCLI(t, h.Env, "api", "schema", "--json")
	if code != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("api schema --json: exit %d, %d lines: %s", code, strings.Count(out, "\n"), errOut)
	}
	var doc struct {
		Protocol int `json:"protocol"`
		Schemas  map[string]struct {
			OneOf []struct {
				Extension  bool   `json:"x-extension"`
				Since      string `json:"x-since"`
				Binary     bool   `json:"x-binary-stream"`
				Properties struct {
					Method struct {
						Const string `json:"const"`
					} `json:"method"`
				} `json:"properties"`
			} `json:"oneOf"`
			Defs map[string]json.RawMessage `json:"$defs"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Protocol != 22 {
		t.Errorf("protocol %d, want 22", doc.Protocol)
	}
	for _, s := range []string{"request", "success_response", "error_response", "event", "subscription_event"} {
		if _, ok := doc.Schemas[s]; !ok {
			t.Errorf("no %s section", s)
		}
	}
	if len(doc.Schemas) != 5 {
		t.Errorf("%d sections, want 5", len(doc.Schemas))
	}
	listed, herdrs := map[string]bool{}, 0
	for _, r := range doc.Schemas["request"].OneOf {
		name := r.Properties.Method.Const
		listed[name] = true
		if m, _ := protocol.Lookup(name); r.Extension != m.Extension {
			t.Errorf("%s: x-extension %v", name, r.Extension)
		}
		if m, _ := protocol.Lookup(name); r.Since != m.Since || (r.Since == "") != m.Extension {
			t.Errorf("%s: x-since %q, extension %v", name, r.Since, r.Extension)
		}
		if r.Binary != (name == "pane.graphics.stream") {
			t.Errorf("%s: x-binary-stream %v", name, r.Binary)
		}
		if !r.Extension && !r.Binary {
			herdrs++
		}
	}
	// Herdr 0.9.0's schema: protocol 20's 91 and the twelve of 22, less
	// the three pane.graphics.* Herdr 0.9.2 removed (ours now), plus
	// those 0.9.1–0.9.5 added that the table has.
	want := 100
	for _, added := range []string{"pane.clear", "server.ssh_agent.register"} {
		if listed[added] {
			want++
		}
	}
	if herdrs != want {
		t.Errorf("the schema lists %d of Herdr's schema methods, want %d", herdrs, want)
	}
	table := protocol.Methods()
	for _, m := range table {
		if !listed[m.Name] {
			t.Errorf("method %s of the table is not in the schema", m.Name)
		}
	}
	if len(listed) != len(table) {
		t.Errorf("the schema lists %d methods, the table has %d", len(listed), len(table))
	}
	for _, name := range protocol22Methods {
		if _, built := protocol.Lookup(name); !built {
			t.Errorf("protocol-22 method %s is not built", name)
		} else if !listed[name] {
			t.Errorf("protocol-22 method %s is not in the schema", name)
		}
	}
	if b, err := os.ReadFile(SchemaPath()); err == nil {
		var ref struct {
			Schemas struct {
				Request struct {
					OneOf []struct {
						Properties struct {
							Method struct {
								Const string `json:"const"`
							} `json:"method"`
						} `json:"properties"`
					} `json:"oneOf"`
				} `json:"request"`
			} `json:"schemas"`
		}
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatal(err)
		}
		for _, r := range ref.Schemas.Request.OneOf {
			name := r.Properties.Method.Const
			removed := strings.HasPrefix(name, "pane.graphics.") // by Herdr 0.9.2; ours since
			if m, _ := protocol.Lookup(name); !listed[name] || m.Extension != removed {
				t.Errorf("Herdr's method %s: listed %v, as an extension %v", name, listed[name], m.Extension)
			}
		}
	} else {
		t.Logf("reference schema %s: %v; not compared", SchemaPath(), err)
	}

	// The event section compiles and takes a real event line.
	raw, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "https://herdr.invalid/generated.schema.json"
	if err := c.AddResource(url, raw); err != nil {
		t.Fatal(err)
	}
	events, err := c.Compile(url + "#/schemas/event")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(url + "#/schemas/subscription_event"); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	sub := s.Dial(t)
	_ = sub.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	OK[protocol.SubscriptionStarted](t, DoOn(t, sub, "sub", "events.subscribe", map[string]any{"subscriptions": []map[string]any{{"type": "workspace.created"}}}), "subscription_started")
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	line, err := sub.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err := events.Validate(v); err != nil {
		t.Errorf("event line does not match the generated event schema: %v\n%s", err, line)
	}
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"event":"workspace_created","data":{"type":"workspace_created"}}`))
	if events.Validate(bad) == nil {
		t.Errorf("an event without its workspace passes the generated event schema")
	}
}

// TestProtocol22_ReloadedToastDeliveryReachesTheClient: a client attached
// while [ui.toast] delivery was off draws the in-app toast once
// server.reload_config made it "herdr" and notification.show answers
// shown (it used to answer shown while the client drew nothing).
func TestProtocol22_ReloadedToastDeliveryReachesTheClient(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "toast")
	c := AttachWith(t, h, "toast", "HERDR_DISABLE_SOUND=1")
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"herdr\"\n")
	if r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload"); r.Status != "applied" {
		t.Fatalf("reload: %+v", r)
	}
	NotifyShown(t, s, map[string]any{"title": "Reloaded", "body": "drawn"})
	c.WaitText(t, "Reloaded: drawn")
}

// TestProtocol22_PromptToABlockedAgentSendsNothing: agent.prompt to an
// agent waiting at an approval dialog answers agent_blocked and types
// nothing: the agent (a stand-in for Claude that logs each line it reads)
// reads the next line sent after the refusal, and never the prompt.
func TestProtocol22_PromptToABlockedAgentSendsNothing(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	bin := Mkdir(t, s, "bin")
	log := filepath.Join(s.Home.Dir, "claude-read.log")
	script := strings.Replace(FakeClaudeCLI, "while read cue; do\n", "while read cue; do\n  echo \"$cue\" >> '"+log+"'\n", 1)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}}).RootPane.PaneID
	s.Run(t, p, "claude")
	status := func() protocol.AgentStatus {
		return OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": p}), "pane_info").Pane.AgentStatus
	}
	WaitFor(t, "claude detected", func() bool {
		a := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": p}), "pane_info").Pane.Agent
		return a != nil && *a == "claude"
	})
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": p, "text": "b\r"}), "ok")
	WaitFor(t, "the approval dialog", func() bool { return status() == protocol.StatusBlocked })

	Fail(t, s.Call("agent.prompt", map[string]any{"target": p, "text": "hello-prompt"}), protocol.CodeAgentBlocked)
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": p, "text": "i\r"}), "ok")
	WaitFor(t, "the line sent after the refusal", func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), "i\n")
	})
	if b, _ := os.ReadFile(log); string(b) != "b\ni\n" {
		t.Errorf("the agent read %q, want only b and i", b)
	}
}
