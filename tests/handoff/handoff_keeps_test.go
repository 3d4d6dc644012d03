//go:build unix

package handoff

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// What a live handoff keeps besides the panes: the web dashboard and the
// knowledge that the plugins' startup hooks have run.

// A dashboard started with `herdr web` is running after a live handoff,
// served by the new server on the same address with the same token, so
// an open page reconnects to the URL it has.
func TestHandoff_WebDashboardKeepsRunning(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "hweb")
	StopHeir(t, s)
	s.CreateWorkspace(t, nil)
	url := strings.TrimSpace(AgentCLI(t, s, "web", "--listen", "127.0.0.1:0"))
	base, token, ok := strings.Cut(url, "?token=")
	if !ok || len(token) != 64 || strings.HasSuffix(base, ":0/") {
		t.Fatalf("herdr web printed %q", url)
	}
	wsURL := strings.Replace(strings.Replace(url, "http://", "ws://", 1), "/?token=", "/ws?token=", 1)
	page := dialDashboard(t, wsURL)
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	// The page's socket to the old server ends; the page reconnects to the
	// same URL, now served by the new server.
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	for {
		if _, _, err := page.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("the page's socket to the old server stayed open")
			}
			break
		}
	}
	s.WaitExit(t) // the old server is gone: what answers now is the new one
	dialDashboard(t, wsURL)
	if again := strings.TrimSpace(AgentCLI(t, s, "web", "url")); again != url {
		t.Fatalf("after the handoff herdr web url printed %q, want %q", again, url)
	}
	if code := GetWithToken(t, base+"app.js", token); code != http.StatusOK {
		t.Fatalf("GET %sapp.js with the token after the handoff: %d, want 200", base, code)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"app.js", nil)
	req.Header.Set("Authorization", "Bearer "+strings.Repeat("0", 64))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode == http.StatusOK {
		t.Fatalf("a wrong token after the handoff: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// A second handoff carries it again.
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("second live-handoff: exit %d: %s", code, stderr)
	}
	if again := strings.TrimSpace(AgentCLI(t, s, "web", "url")); again != url {
		t.Fatalf("after a second handoff herdr web url printed %q, want %q", again, url)
	}
}

// dialDashboard opens the page's WebSocket at url and checks that the
// server answers a call on it.
func dialDashboard(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{Subprotocols: []string{"herdr"}})
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	ws.SetReadLimit(-1)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":"snap","method":"session.snapshot","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("no answer on the dashboard's socket: %v", err)
		}
		var resp protocol.Response
		if json.Unmarshal(data, &resp) == nil && resp.ID == "snap" {
			if resp.Error != nil {
				t.Fatalf("session.snapshot on the dashboard: %+v", resp.Error)
			}
			return ws
		}
	}
}

// A server that was not serving the dashboard hands over none: web.url
// still answers web_not_running.
func TestHandoff_NoDashboardStaysOff(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	AgentCLIFail(t, s, "web_not_running", "web", "url")
}

// The plugins' [[startup]] hooks run once when the server starts, and not
// again when a live handoff replaces it: the new server knows it was
// handed over. Its event hooks do run.
func TestHandoff_StartupHooksDoNotRunAgain(t *testing.T) {
	h := NewHome(t)
	dir := WritePlugin(t, filepath.Join(h.Dir, "once"), PluginManifest("test.once",
		"[[startup]]\ncommand = [\"sh\", \"-c\", \"echo startup >> \\\"$HERDR_PLUGIN_STATE_DIR/runs.log\\\"\"]\n"+
			"[[events]]\non = \"workspace.created\"\ncommand = [\"sh\", \"-c\", \"echo created >> \\\"$HERDR_PLUGIN_STATE_DIR/runs.log\\\"\"]\n"))
	if out, stderr, code := RunCLI(t, h.Env, "--session", "honce", "plugin", "link", dir); code != 0 {
		t.Fatalf("plugin link with no server: %d %s %s", code, out, stderr)
	}
	runs := filepath.Join(h.Dir, "s", "herdr", "plugins", "test.once", "runs.log")
	s := h.Start(t, "honce")
	StopHeir(t, s)
	WaitFor(t, "the startup hook at the server's start", func() bool {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "startup") == 1
	})
	startups := func() int {
		n := 0
		for _, l := range OK[protocol.PluginLogList](t, s.CallT(t, "plugin.log.list", map[string]any{"plugin_id": "test.once"}), "plugin_log_list").Logs {
			if l.Event != nil && *l.Event == "startup" {
				n++
			}
		}
		return n
	}
	if n := startups(); n != 1 {
		t.Fatalf("the first server logged %d startup runs, want 1", n)
	}
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	// The new server would have launched them (and logged them) before it
	// said it was ready.
	if n := startups(); n != 0 {
		t.Fatalf("the new server ran the startup hooks again (%d runs logged)", n)
	}
	s.CreateWorkspace(t, nil)
	WaitFor(t, "the workspace.created hook on the new server", func() bool {
		b, _ := os.ReadFile(runs)
		return strings.Contains(string(b), "created")
	})
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "startup") != 1 {
		t.Fatalf("runs after the handoff:\n%s", b)
	}
}
