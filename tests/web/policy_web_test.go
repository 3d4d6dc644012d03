//go:build unix

package web

import (
	"context"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// `herdr web --policy reviewer` prints a URL whose token opens a page
// limited by the policy: its reads are answered, its typing and focusing
// refused (forbidden, naming the policy), and both are in the audit log
// as the web's. The full token's URL is another, unlimited.
func TestWeb_PolicyToken(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n\n[[policy]]\nname = \"reviewer\"\nread_only = true\n")
	s := h.Start(t, "webpol")
	s.CreateWorkspace(t, nil)
	full := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	limited := strings.TrimSpace(AgentCLI(t, s, "web", "--policy", "reviewer"))
	if limited == full || !strings.Contains(limited, "?token=") {
		t.Fatalf("limited URL %q, full %q", limited, full)
	}
	if again := strings.TrimSpace(AgentCLI(t, s, "web", "--policy", "reviewer")); again != limited {
		t.Fatalf("a second --policy reviewer minted another token: %q, %q", again, limited)
	}
	AgentCLIFail(t, s, protocol.CodeInvalidParams, "web", "--policy", "nope")

	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, strings.Replace(strings.Replace(limited, "/?token=", "/ws?token=", 1), "http://", "ws://", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	ask := func(id, method, params string) protocol.Response {
		t.Helper()
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":"`+id+`","method":"`+method+`","params":`+params+`}`)); err != nil {
			t.Fatal(err)
		}
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				var resp protocol.Response
				if protocol.Unmarshal([]byte(line), &resp) == nil && resp.ID == id {
					return resp
				}
			}
		}
	}
	if resp := ask("1", "pane.list", "{}"); resp.Error != nil {
		t.Fatalf("pane.list through the limited token: %+v", resp.Error)
	}
	for i, call := range [][2]string{{"pane.send_text", `{"pane_id":"w1:p1","text":"nope"}`}, {"pane.focus", `{"pane_id":"w1:p1"}`}} {
		resp := ask(string(rune('a'+i)), call[0], call[1])
		if resp.Error == nil || resp.Error.Code != protocol.CodeForbidden || !strings.HasPrefix(resp.Error.Message, "policy reviewer: ") {
			t.Fatalf("%s through the limited token: %+v", call[0], resp.Error)
		}
	}
	out := AgentCLI(t, s, "audit", "--json")
	var list protocol.AuditList
	var resp protocol.Response
	if err := protocol.Unmarshal([]byte(strings.TrimSpace(out)), &resp); err != nil || protocol.Unmarshal(resp.Result, &list) != nil {
		t.Fatalf("herdr audit --json: %v\n%s", err, out)
	}
	seen := map[string]string{}
	for _, e := range list.Entries {
		if e.Client == "web" && e.Policy == "reviewer" {
			seen[e.Method] = e.Outcome
		}
	}
	if seen["pane.list"] != "ok" || seen["pane.send_text"] != protocol.CodeForbidden || seen["pane.focus"] != protocol.CodeForbidden {
		t.Fatalf("audit of the web page: %v (entries %+v)", seen, list.Entries)
	}
}
