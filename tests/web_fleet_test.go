package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
)

// The dashboard's fleet view (issue 31): the page lists the saved machines
// with machine.list, the fleet's agents with agent.list {"machines":"all"}
// grouped by status, and opens a remote agent's pane by its qualified id.
// fleetServer speaks the fleet contract (/work/briefs/fleet-contract.md)
// to the real page in a real browser, so the page is tested against the
// contract on its own; the tests after it run the real server.

type fleetServer struct {
	mu       sync.Mutex
	machines []map[string]any // nil: machine.list is an unknown method
	agents   []map[string]any // the fleet's agents (with "machine")
	screen   map[string]string
	calls    []map[string]any // every request the page sent
	push     chan []byte
}

func (f *fleetServer) set(fn func()) { f.mu.Lock(); fn(); f.mu.Unlock() }

func (f *fleetServer) sent(method string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, c := range f.calls {
		if c["method"] == method {
			out = append(out, c)
		}
	}
	return out
}

func (f *fleetServer) answer(method string, params map[string]any) (any, map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "session.snapshot":
		return map[string]any{"type": "session_snapshot", "snapshot": map[string]any{"version": "0.9.0", "protocol": 22,
			"workspaces": []any{}, "tabs": []any{}, "panes": []any{}, "layouts": []any{}, "agents": []any{}}}, nil
	case "machine.list":
		if f.machines == nil {
			return nil, map[string]string{"code": "unknown_method", "message": "unknown method: machine.list"}
		}
		return map[string]any{"type": "machine_list", "machines": f.machines}, nil
	case "agent.list":
		var agents []map[string]any
		for _, a := range f.agents {
			if a["machine"] == nil || params["machines"] == "all" {
				agents = append(agents, a)
			}
		}
		return map[string]any{"type": "agent_list", "agents": agents}, nil
	case "pane.read":
		id, _ := params["pane_id"].(string)
		text, ok := f.screen[id]
		if !ok {
			return nil, map[string]string{"code": "pane_not_found", "message": "no pane " + id}
		}
		return map[string]any{"type": "pane_read", "read": map[string]any{"pane_id": id, "source": "visible", "format": "text", "text": text}}, nil
	case "screen.subscribe":
		return map[string]any{"type": "screen_subscribed"}, nil
	}
	return map[string]any{"type": "ok"}, nil
}

func (f *fleetServer) serve(t *testing.T) string {
	static := filepath.Join(moduleRoot, "actors", "web", "static")
	f.push = make(chan []byte, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/", "/app.js", "/fleet.js", "/app.css":
			name := strings.TrimPrefix(r.URL.Path, "/")
			if name == "" {
				name = "index.html"
			}
			http.ServeFile(w, r, filepath.Join(static, name))
		case "/ws":
			ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"herdr"}})
			if err != nil {
				return
			}
			f.socket(r.Context(), ws)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/?token=" + strings.Repeat("ab", 32)
}

func (f *fleetServer) socket(ctx context.Context, ws *websocket.Conn) {
	defer ws.CloseNow()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan []byte, 16)
	go func() {
		defer cancel()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			lines <- data
		}
	}()
	for {
		var out []byte
		select {
		case <-ctx.Done():
			return
		case ev := <-f.push:
			out = ev
		case data := <-lines:
			var req struct {
				ID     string         `json:"id"`
				Method string         `json:"method"`
				Params map[string]any `json:"params"`
			}
			if json.Unmarshal(data, &req) != nil {
				return
			}
			f.set(func() { f.calls = append(f.calls, map[string]any{"method": req.Method, "params": req.Params}) })
			result, failure := f.answer(req.Method, req.Params)
			if failure != nil {
				out, _ = json.Marshal(map[string]any{"id": req.ID, "error": failure})
			} else {
				out, _ = json.Marshal(map[string]any{"id": req.ID, "result": result})
			}
		}
		if ws.Write(ctx, websocket.MessageText, out) != nil {
			return
		}
	}
}

func pageAgent(pane, name, status, machine string, stale bool) map[string]any {
	a := map[string]any{"terminal_id": "t-" + pane, "name": name, "agent": "claude", "agent_status": status,
		"pane_id": pane, "workspace_id": "w1", "tab_id": "w1:1", "focused": false, "interactive_ready": true,
		"state_change_seq": 1, "revision": 1}
	if machine != "" {
		a["machine"] = map[string]any{"id": "m-" + machine, "label": machine}
	}
	if stale {
		a["stale"] = true
	}
	return a
}

// pageText is the text of the first element matching sel ("" when none).
func pageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+jsString(sel)+`) || {}).textContent || ""`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestWebFleet_PageSpeaksTheContract: machines with their states (Local
// first), the fleet's agents by status (blocked first) with their machine
// and the offline machine's dimmed, a remote pane read by its qualified id
// and typed into, a machine_state_changed event redrawing the view, and a
// remote label full of markup drawn as text.
func TestWebFleet_PageSpeaksTheContract(t *testing.T) {
	exe := chromium(t)
	now := time.Now().UnixMilli()
	evil := `<img src=x onerror="document.title='pwned'">`
	f := &fleetServer{
		machines: []map[string]any{
			{"id": "m-build", "label": "build", "target": "build", "enabled": true, "state": "online", "since_ms": now,
				"last_contact_ms": now, "remote_version": "0.9.1", "remote_protocol": 22, "workspaces": 1, "agents": 2},
			{"id": "m-gpu", "label": evil, "target": "gpu", "enabled": true, "state": "offline", "since_ms": now,
				"last_contact_ms": now - 90_000, "error": "ssh: connect to host gpu: Connection refused", "workspaces": 1, "agents": 1},
		},
		agents: []map[string]any{
			pageAgent("w1:p1", "local-one", "idle", "", false),
			pageAgent("build/w1:p2", "reviewer", "working", "build", false),
			pageAgent("build/w2:p1", "fixer", "blocked", "build", false),
			pageAgent("m-gpu/w1:p1", "trainer", "done", "gpu", true),
		},
		screen: map[string]string{"build/w1:p2": "remote says <b>hello</b>\nsecond line\n"},
	}
	url := f.serve(t)
	ctx := browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`li.machine[data-machine="m-build"][data-state="online"]`))); err != nil {
		t.Fatalf("the Machines view never showed build online: %v", err)
	}
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.machine")].map((l) => l.dataset.machine + "=" + l.dataset.state)`))
	if err != nil || strings.Join(order, " ") != "local=online m-build=online m-gpu=offline" {
		t.Fatalf("machines drawn %q (%v), want Local first, then build online and gpu offline", order, err)
	}
	if d := pageText(t, ctx, `li.machine[data-machine="m-build"] .detail`); !strings.Contains(d, "last contact") || !strings.Contains(d, "v0.9.1") {
		t.Errorf("build's detail %q: want its last contact and remote version", d)
	}
	if d := pageText(t, ctx, `li.machine[data-machine="m-gpu"]`); !strings.Contains(d, evil) || !strings.Contains(d, "Connection refused") {
		t.Errorf("gpu's row %q: want its label as text and its error", d)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#fleet img").length`)); n != 0 {
		t.Errorf("a remote label became %d img elements", n)
	}
	groups, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#bystate li.agent")].map((l) => l.dataset.status + ":" + l.dataset.machine + ":" + l.dataset.pane + (l.classList.contains("stale") ? ":stale" : ""))`))
	want := "blocked:build:build/w2:p1 working:build:build/w1:p2 done:gpu:m-gpu/w1:p1:stale idle:Local:w1:p1"
	if err != nil || strings.Join(groups, " ") != want {
		t.Fatalf("agents by state %q (%v), want %q", groups, err, want)
	}
	if p := f.sent("agent.list"); len(p) == 0 || p[len(p)-1]["params"].(map[string]any)["machines"] != "all" {
		t.Errorf("agent.list calls %v: want machines all", p)
	}

	// The offline machine's agent is only shown: it does not open.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.agent[data-pane="m-gpu/w1:p1"]`))); err != nil {
		t.Fatal(err)
	}
	if open, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(state.open)`)); open != "null" {
		t.Errorf("clicking an offline machine's agent opened %s", open)
	}
	// The remote agent opens in the pane view, read by its qualified id.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`li.agent[data-pane="build/w1:p2"]`))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the remote pane's text in the view", func() bool {
		return strings.Contains(pageText(t, ctx, "#term"), "remote says <b>hello</b>")
	})
	f.set(func() { f.screen["build/w1:p2"] = "remote says <b>hello</b>\nsecond line\nthird line arrives\n" })
	WaitFor(t, "the remote pane's next read in the view", func() bool {
		return strings.Contains(pageText(t, ctx, "#term"), "third line arrives")
	})
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#term b").length`)); n != 0 {
		t.Errorf("remote pane text became %d b elements", n)
	}
	for _, c := range f.sent("screen.subscribe") {
		if ids, _ := c["params"].(map[string]any)["pane_ids"].([]any); len(ids) != 0 {
			t.Errorf("the page subscribed to screens %v for a remote pane", ids)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#screen`)), chromedp.KeyEvent("ok")); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "typing reaching pane.send_text with the qualified id", func() bool {
		for _, c := range f.sent("pane.send_text") {
			if p := c["params"].(map[string]any); p["pane_id"] == "build/w1:p2" && strings.Contains(p["text"].(string), "ok") {
				return true
			}
		}
		return false
	})

	// build goes offline: the event redraws the view and dims its agents.
	f.set(func() {
		f.machines[0]["state"], f.machines[0]["error"] = "offline", "keep-alive timed out"
		for _, a := range f.agents[1:3] {
			a["stale"] = true
		}
	})
	f.push <- []byte(`{"event":"machine_state_changed","data":{"type":"machine_state_changed","machine":{"id":"m-build","label":"build"},"state":"offline","previous":"online","error":"keep-alive timed out"}}`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`li.machine[data-machine="m-build"][data-state="offline"]`)),
		chromedp.WaitVisible(chromedp.CSS(`li.agent.stale[data-pane="build/w2:p1"]`))); err != nil {
		t.Fatalf("build never shown offline with its agents dimmed: %v", err)
	}
	if title, _ := chromedp.Run(ctx, chromedp.Title()); title == "pwned" {
		t.Fatal("a remote label ran script")
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	keepShot(t, "web-fleet.png", png)
}

// TestWebFleet_HiddenOnAnOlderServer: a server answering machine.list with
// unknown_method has no fleet, and the page shows no Machines view.
func TestWebFleet_HiddenOnAnOlderServer(t *testing.T) {
	exe := chromium(t)
	f := &fleetServer{agents: []map[string]any{pageAgent("w1:p1", "local-one", "idle", "", false)}}
	url := f.serve(t)
	ctx := browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#conn[data-state="open"]`))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the page's machine.list answered", func() bool {
		idle, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`state.pending.size === 0`))
		return idle && len(f.sent("machine.list")) > 0
	})
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("fleet").hidden`))
	if err != nil || !hidden {
		t.Fatalf("the Machines view on a server without machine.list: hidden=%v (%v)", hidden, err)
	}
	if msg := pageText(t, ctx, "#msg"); msg != "" {
		t.Errorf("the page says %q on an older server; want nothing", msg)
	}
}

// TestWebFleet_RealServerWithoutMachines: the real server serves the fleet
// view's script, and the page draws what the server's machine.list says:
// Local and "no machines" when none is saved, nothing when the server has
// no machine.list.
func TestWebFleet_RealServerWithoutMachines(t *testing.T) {
	exe := chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "web")
	url := strings.TrimSpace(agentCLI(t, s, "web", "url"))
	hasMachineList := rawCall(t, s, "machine.list", map[string]any{}, nil) == nil

	ctx := browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#conn[data-state="open"]`))); err != nil {
		t.Fatal(err)
	}
	if loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof refreshFleet === "function"`)); err != nil || !loaded {
		t.Fatalf("fleet.js not loaded from the server: %v %v", loaded, err)
	}
	// A method the server does not know is unknown_method to the page too
	// (a refusal is invalid_request), so the page can tell an older server.
	if code, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("fleet.no_such_method").then(() => "ran", (e) => e.code)`, chromedp.EvalAwaitPromise)); err != nil || code != "unknown_method" {
		t.Errorf("an unknown method from the page: %q (%v), want unknown_method", code, err)
	}
	if !hasMachineList {
		WaitFor(t, "the page's first listing answered", func() bool {
			idle, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`state.snap !== null && state.pending.size === 0`))
			return idle
		})
		if hidden, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("fleet").hidden`)); !hidden {
			t.Fatal("the Machines view is shown by a server without machine.list")
		}
		return
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`li.machine[data-machine="local"][data-state="online"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#nomachines`))); err != nil {
		t.Fatalf("the Machines view of a server with no saved machine: %v", err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("li.machine").length`)); n != 1 {
		t.Errorf("%d machine rows, want Local only", n)
	}
}
