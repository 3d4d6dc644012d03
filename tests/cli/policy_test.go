//go:build unix

package cli

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

const policyConfig = `
[[policy]]
name = "reviewer"
read_only = true

[[policy]]
name = "w1only"
workspaces = ["w1"]
`

// startMCPWith runs `herdr --session NAME mcp ARGS…` and connects the
// SDK's client to it.
func startMCPWith(t *testing.T, s *Server, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(HerdrBin, append([]string{"--session", s.Name, "mcp"}, args...)...)
	cmd.Env = slices.Clone(s.Env)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "policy-e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to herdr mcp %v: %v", args, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// An agent handed `herdr mcp --policy reviewer` (read-only) lists panes
// and is refused typing into one, the error naming the policy, and
// `herdr audit --json` shows both calls; one handed a policy limited to
// w1 sees and types into w1's pane only; a raw connection cannot
// take another policy after one, and its pipelined writes are refused
// too, as are subscriptions to another workspace's pane. Unknown policies and policies naming methods that do not exist
// are refused at start, in one line.
func TestPolicy_MCPReadOnlyWorkspaceLimitAndAudit(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, policyConfig)
	s := h.Start(t, "pol")
	s.CreateWorkspace(t, nil)
	s.CreateWorkspace(t, nil)

	reviewer := startMCPWith(t, s, "--policy", "reviewer")
	res := callTool(t, reviewer, "list_panes", nil)
	if res.IsError || !strings.Contains(mcpText(res), "w2:p1") {
		t.Fatalf("list_panes under reviewer: error %v, %s", res.IsError, mcpText(res))
	}
	res = callTool(t, reviewer, "send_text", map[string]any{"pane_id": "w1:p1", "text": "echo nope"})
	if !res.IsError || !strings.HasPrefix(mcpText(res), "forbidden: policy reviewer: ") {
		t.Fatalf("send_text under reviewer: error %v, %q", res.IsError, mcpText(res))
	}

	out, errOut, code := s.CLI("audit", "--json")
	if code != 0 {
		t.Fatalf("herdr audit --json: exit %d: %s", code, errOut)
	}
	var list protocol.AuditList
	if err := protocol.Unmarshal(CLIResponse(t, out).Result, &list); err != nil {
		t.Fatal(err)
	}
	var listed, refused bool
	for _, e := range list.Entries {
		if e.Client != "mcp" || e.Policy != "reviewer" {
			continue
		}
		listed = listed || (e.Method == "pane.list" && e.Outcome == "ok" && e.Access == "read")
		refused = refused || (e.Method == "pane.send_input" && e.Outcome == protocol.CodeForbidden && e.Target == "w1:p1" && e.Access == "write")
	}
	if !listed || !refused {
		t.Fatalf("audit misses the list (%v) or the refusal (%v): %+v", listed, refused, list.Entries)
	}
	if text, _, _ := s.CLI("audit"); !strings.Contains(text, "pane.send_input") {
		t.Fatalf("herdr audit (table) lacks the refusal:\n%s", text)
	}

	w1 := startMCPWith(t, s, "--policy", "w1only")
	if res := callTool(t, w1, "list_panes", nil); res.IsError || !strings.Contains(mcpText(res), "w1:p1") || strings.Contains(mcpText(res), "w2:p1") {
		t.Fatalf("list_panes under w1only shows only w1's: error %v, %s", res.IsError, mcpText(res))
	}
	if res := callTool(t, w1, "send_text", map[string]any{"pane_id": "w1:p1", "text": "echo in-w1", "enter": true}); res.IsError {
		t.Fatalf("send_text into w1 under w1only: %s", mcpText(res))
	}
	s.WaitLine(t, "w1:p1", "in-w1")
	res = callTool(t, w1, "send_text", map[string]any{"pane_id": "w2:p1", "text": "echo in-w2", "enter": true})
	if !res.IsError || !strings.HasPrefix(mcpText(res), "forbidden: policy w1only: ") || !strings.Contains(mcpText(res), "w2") {
		t.Fatalf("send_text into w2 under w1only: error %v, %q", res.IsError, mcpText(res))
	}
	if r := s.Read(t, "w2:p1", "recent", 50); strings.Contains(r.Text, "in-w2") {
		t.Fatalf("a refused call typed into w2:\n%s", r.Text)
	}

	// herdr mcp without a policy is audited too, as MCP's.
	free := startMCPWith(t, s)
	if res := callTool(t, free, "send_text", map[string]any{"pane_id": "w2:p1", "text": "x"}); res.IsError {
		t.Fatalf("send_text without a policy: %s", mcpText(res))
	}
	out, _, _ = s.CLI("audit", "--json", "--limit", "1")
	list = protocol.AuditList{} // decoded afresh: an absent key would keep the old entry's value
	if err := protocol.Unmarshal(CLIResponse(t, out).Result, &list); err != nil || len(list.Entries) != 1 ||
		list.Entries[0].Client != "mcp" || list.Entries[0].Policy != "" || list.Entries[0].Method != "pane.send_input" || list.Entries[0].Outcome != "ok" {
		t.Fatalf("the unlimited MCP's write in the audit: %v %+v", err, list.Entries)
	}

	// A raw connection: the policy sticks, and pipelined lines are checked.
	c := s.Dial(t)
	defer c.Close()
	if err := c.Call("connection.policy", map[string]any{"policy": "reviewer"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call("connection.policy", map[string]any{"policy": "w1only"}, nil); err == nil || !strings.HasPrefix(err.Error(), "forbidden: ") {
		t.Fatalf("a second policy: %v", err)
	}
	if err := c.WriteLine([]byte(`{"id":"a","method":"pane.send_text","params":{"pane_id":"w1:p1","text":"x"}}` + "\n" +
		`{"id":"b","method":"workspace.create","params":{}}` + "\n" + `{"id":"c","method":"workspace.list","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{protocol.CodeForbidden, protocol.CodeForbidden, ""} {
		resp := ReadResponse(t, c)
		if (want == "") != (resp.Error == nil) || (resp.Error != nil && resp.Error.Code != want) {
			t.Fatalf("pipelined %s: %+v", resp.ID, resp.Error)
		}
	}
	// A subscription's pane filters are placed like any target.
	c2 := s.Dial(t)
	defer c2.Close()
	if err := c2.Call("connection.policy", map[string]any{"policy": "w1only"}, nil); err != nil {
		t.Fatal(err)
	}
	err := c2.Call("events.subscribe", map[string]any{"subscriptions": []map[string]any{{"type": "pane.agent_status_changed", "pane_id": "w2:p1"}}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "forbidden: policy w1only: ") {
		t.Fatalf("a w1only subscription to w2's pane: %v", err)
	}
	if n := len(OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces); n != 2 {
		t.Fatalf("%d workspaces after a refused workspace.create", n)
	}

	// Bad policies are refused when herdr mcp starts, in one line.
	_, errOut, code = s.CLI("mcp", "--policy", "nope")
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, `no [[policy]] named \"nope\"`) {
		t.Fatalf("herdr mcp --policy nope: exit %d, %q", code, errOut)
	}
	h.WriteConfig(t, policyConfig+"\n[[policy]]\nname = \"typo\"\nmethods = [\"pane.reed\"]\n")
	_, errOut, code = s.CLI("mcp", "--policy", "typo")
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, `no method \"pane.reed\"`) {
		t.Fatalf("herdr mcp --policy typo: exit %d, %q", code, errOut)
	}
	if out, errOut, _ := s.CLI("config", "check"); !strings.Contains(out+errOut, `policy "typo": methods: no method "pane.reed"`) {
		t.Fatalf("herdr config check does not report the bad policy:\n%s%s", out, errOut)
	}
}
