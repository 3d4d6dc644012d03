package fleet

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// fakeServer answers each request line on a socket: pane.get of w1:p2
// with its info, anything else pane_not_found, and records the requests.
func fakeServer(t *testing.T) (string, chan protocol.Request) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.sock")
	l, err := protocol.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	seen := make(chan protocol.Request, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				line, err := bufio.NewReader(c).ReadBytes('\n')
				if err != nil {
					return
				}
				var req protocol.Request
				if protocol.Unmarshal(line, &req) != nil {
					return
				}
				seen <- req
				var p struct {
					PaneID string `json:"pane_id"`
				}
				_ = protocol.Unmarshal(req.Params, &p)
				out := `{"id":"` + req.ID + `","error":{"code":"pane_not_found","message":"pane ` + p.PaneID + ` not found"}}`
				if req.Method == "pane.get" && p.PaneID == "w1:p2" {
					out = `{"id":"` + req.ID + `","result":{"type":"pane_info","pane":{"pane_id":"w1:p2","workspace_id":"w1"}}}`
				}
				_, _ = c.Write([]byte(out + "\n"))
			}()
		}
	}()
	return path, seen
}

func forwarded(t *testing.T, method, raw string) *kit.Call {
	t.Helper()
	p, err := protocol.DecodeRouted(method, json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return &kit.Call{Method: method, Params: p}
}

func ask(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, call *kit.Call) *kit.Reply {
	t.Helper()
	res, err := sys.Root.RequestFuture(pid, call, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*kit.Reply)
}

// A call for member alpha's qualified id goes to alpha over NATS, is
// answered through alpha's socket with alpha's own ids, and comes back
// qualified; alpha's errors come back as they were; an unknown member is
// machine_not_found.
func TestCalls_RequestReply(t *testing.T) {
	sock, seen := fakeServer(t)
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Socket: sock, Log: quiet()})
	status(t, sys, a, func(s protocol.FleetStatus) bool { return len(s.Members) == 1 })

	r := ask(t, sys, a, forwarded(t, "pane.get", `{"pane_id":"alpha/w1:p2"}`))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if req := <-seen; req.Method != "pane.get" || !strings.Contains(string(req.Params), `"w1:p2"`) || strings.Contains(string(req.Params), "alpha/") {
		t.Fatalf("the member was asked %s %s", req.Method, req.Params)
	}
	enc := r.Result.(protocol.Encoded)
	if enc.Type != "pane_info" || !strings.Contains(string(enc.JSON), `"pane_id":"alpha/w1:p2"`) || !strings.Contains(string(enc.JSON), `"machine":{"id":"alpha","label":"alpha"}`) {
		t.Fatalf("answer %s %s", enc.Type, enc.JSON)
	}

	r = ask(t, sys, a, forwarded(t, "pane.get", `{"pane_id":"alpha/w9:p9"}`))
	if pe, ok := r.Err.(*protocol.Error); !ok || pe.Code != protocol.CodePaneNotFound {
		t.Fatalf("bad pane: %v", r.Err)
	}
	r = ask(t, sys, a, forwarded(t, "pane.get", `{"pane_id":"nobody/w1:p2"}`))
	if pe, ok := r.Err.(*protocol.Error); !ok || pe.Code != protocol.CodeMachineNotFound {
		t.Fatalf("unknown member: %v", r.Err)
	}
}

// A member whose entry is still fresh but whose server no longer answers
// is machine_offline (no responders), at once.
func TestCalls_GoneMemberIsOffline(t *testing.T) {
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Log: quiet()})
	status(t, sys, a, func(s protocol.FleetStatus) bool {
		return len(s.Members) == 1 && s.Hub.State == protocol.FleetHubConnected
	})
	nc := connectT(t, hubURL(hub.Listen))
	kv, err := jsKV(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctxT(t), "ghost", encodeEntry(presenceEntry{Name: "ghost"})); err != nil {
		t.Fatal(err)
	}
	status(t, sys, a, func(s protocol.FleetStatus) bool { _, ok := names(s)["ghost"]; return ok })
	r := ask(t, sys, a, forwarded(t, "pane.get", `{"pane_id":"ghost/w1:p2"}`))
	// No responders, told as such (not a timeout).
	if pe, ok := r.Err.(*protocol.Error); !ok || pe.Code != protocol.CodeMachineOffline || !strings.Contains(pe.Message, "not answering") {
		t.Fatalf("gone member: %v", r.Err)
	}
}

// What another member sends is checked before this server's socket sees
// it: not JSON, an unknown method, or a stream (which one answer cannot
// carry) are refused with their codes.
func TestAnswer_RefusesWhatCannotBeAnswered(t *testing.T) {
	sock, seen := fakeServer(t)
	read, some := []string{"read"}, []string{"read", "pane.send_keys"}
	for _, c := range []struct {
		data, code string
		allow      []string
	}{
		{`{`, protocol.CodeInvalidRequest, nil},
		{`{"method":"no.such"}`, protocol.CodeUnknownMethod, nil},
		{`{"method":"events.subscribe","params":{}}`, protocol.CodeNotSupported, nil},
		{`{"method":"pane.send_text","params":{"pane_id":"w1:p1","text":"x"}}`, protocol.CodeNotAllowed, read},
		{`{"method":"pane.close","params":{"pane_id":"w1:p1"}}`, protocol.CodeNotAllowed, some},
		{`{"method":"pane.list","params":{}}`, protocol.CodeNotAllowed, []string{"pane.get"}},
		{`{"method":"ping","params":{}}`, protocol.CodeNotAllowed, []string{}},
	} {
		var resp protocol.Response
		if err := protocol.Unmarshal(answer(sock, "alpha", c.allow, []byte(c.data)), &resp); err != nil {
			t.Fatal(err)
		}
		if resp.Error == nil || resp.Error.Code != c.code {
			t.Errorf("%s: answered %+v, want %s", c.data, resp, c.code)
		}
		if c.code == protocol.CodeNotAllowed && !strings.Contains(resp.Error.Message, "[fleet] allow") {
			t.Errorf("%s: the refusal does not name the setting: %s", c.data, resp.Error.Message)
		}
	}
	select {
	case req := <-seen:
		t.Fatalf("the socket was asked %s", req.Method)
	default:
	}
}

// allow = "read" lets in what reads and refuses what writes; a list adds
// methods by name; every method of the read set is one the fleet answers.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		allow  []string
		method string
		want   bool
	}{
		{nil, "pane.close", true},
		{[]string{"read"}, "pane.list", true},
		{[]string{"read"}, "pane.read", true},
		{[]string{"read"}, "pane.send_text", false},
		{[]string{"read"}, "workspace.create", false},
		{[]string{"read", "pane.send_keys"}, "pane.send_keys", true},
		{[]string{"pane.get"}, "pane.list", false},
		{[]string{}, "ping", false},
	} {
		if got := allowed(c.allow, c.method); got != c.want {
			t.Errorf("allowed(%q, %s) = %v", c.allow, c.method, got)
		}
	}
	for _, name := range readMethods {
		m, ok := protocol.Lookup(name)
		if !ok || (m.Shape != protocol.ShapeAnswer && m.Shape != protocol.ShapeWait) {
			t.Errorf("read method %s: in the table %v, shape %v", name, ok, m.Shape)
		}
	}
}
