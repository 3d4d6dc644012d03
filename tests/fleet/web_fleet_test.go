package fleet

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The dashboard's fleet view (issue 31): the page lists the saved machines
// with machine.list, the fleet's agents with agent.list {"machines":"all"}
// grouped by status, and opens a remote agent's pane by its qualified id.
// The tests run the real server (the one with machines reaches them over a
// real sshd, in web_fleet_unix_test.go); only an upstream Herdr server,
// which cannot run here, is played by a stand-in.

// upstreamHerdr serves the page and plays an upstream Herdr server on its
// socket: it answers session.snapshot, and a method it does not know
// (machine.list) as upstream does, a parse failure that is
// invalid_request under an empty id.
func upstreamHerdr(t *testing.T) (url string, asked func(method string) bool) {
	static := filepath.Join(ModuleRoot, "actors", "web", "static")
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws" {
			name := strings.TrimPrefix(r.URL.Path, "/")
			if name == "" {
				name = "index.html"
			}
			http.ServeFile(w, r, filepath.Join(static, filepath.Base(name)))
			return
		}
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"herdr"}})
		if err != nil {
			return
		}
		defer ws.CloseNow()
		for {
			_, data, err := ws.Read(r.Context())
			if err != nil {
				return
			}
			var req struct{ ID, Method string }
			json.Unmarshal(data, &req)
			var out any = map[string]any{"id": "", "error": map[string]string{"code": "invalid_request",
				"message": "invalid request: unknown variant `" + req.Method + "`"}}
			if req.Method == "session.snapshot" {
				out = map[string]any{"id": req.ID, "result": map[string]any{"type": "session_snapshot", "snapshot": map[string]any{
					"version": "0.4.0", "protocol": 20, "workspaces": []any{}, "tabs": []any{}, "panes": []any{}, "layouts": []any{}, "agents": []any{}}}}
			}
			mu.Lock()
			seen[req.Method] = true
			mu.Unlock()
			line, _ := json.Marshal(out)
			if ws.Write(r.Context(), websocket.MessageText, line) != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/?token=" + strings.Repeat("ab", 32), func(method string) bool { mu.Lock(); defer mu.Unlock(); return seen[method] }
}

// TestWebFleet_HiddenOnAnOlderServer: an upstream Herdr server has no
// machine.list, and the page shows no Machines view and no error.
func TestWebFleet_HiddenOnAnOlderServer(t *testing.T) {
	exe := Chromium(t)
	url, asked := upstreamHerdr(t)
	ctx := Browser(t, exe)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#conn[data-state="open"]`))); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "the page asking for machine.list", func() bool { return asked("machine.list") })
	// The socket keeps order: once a later call is answered, the page has
	// read the refusal too.
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`call("session.snapshot").then((r) => r.snapshot.version)`, chromedp.EvalAwaitPromise)); err != nil || v != "0.4.0" {
		t.Fatalf("a call after machine.list: %q (%v)", v, err)
	}
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("fleet").hidden`))
	if err != nil || !hidden {
		t.Fatalf("the Machines view on an upstream server: hidden=%v (%v)", hidden, err)
	}
	if msg := PageText(t, ctx, "#msg"); msg != "" {
		t.Errorf("the page says %q on an upstream server; want nothing", msg)
	}
}

// TestWebFleet_RealServerWithoutMachines: the real server serves the fleet
// view's script, and the page draws what the server's machine.list says:
// Local and "no machines" when none is saved, nothing when the server has
// no machine.list.
func TestWebFleet_RealServerWithoutMachines(t *testing.T) {
	exe := Chromium(t)
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "web")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	hasMachineList := RawCall(t, s, "machine.list", map[string]any{}, nil) == nil

	ctx := Browser(t, exe)
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
