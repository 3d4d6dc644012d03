//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// mcpClient is the SDK's client on the stdio of a real `herdr mcp`
// process, with the notifications it got.
type mcpClient struct {
	*sdk.ClientSession
	cmd      *exec.Cmd
	updated  chan string // resources/updated URIs
	progress chan string // progress messages
	acked    chan struct{}
}

// ackedTransport is the stdio transport, noting each subscription the
// server acknowledges: the SDK's Subscribe returns once it has sent the
// subscriptions/listen request, before the server has subscribed.
type ackedTransport struct {
	sdk.Transport
	acked chan struct{}
}

func (t ackedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	return ackedConn{c, t.acked}, err
}

type ackedConn struct {
	sdk.Connection
	acked chan struct{}
}

func (c ackedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "notifications/subscriptions/acknowledged" {
		select {
		case c.acked <- struct{}{}:
		default:
		}
	}
	return msg, err
}

// subscribe subscribes to uri and returns once the server acknowledged it:
// from then on a change is notified.
func (m *mcpClient) subscribe(t *testing.T, ctx context.Context, uri string) {
	t.Helper()
	for len(m.acked) > 0 {
		<-m.acked
	}
	if err := m.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
	select {
	case <-m.acked:
	case <-ctx.Done():
		t.Fatalf("subscribe %s: the server never acknowledged it", uri)
	}
}

// startMCP runs `herdr --session NAME mcp` with the server's environment
// plus extra, and connects the SDK's client to it.
func startMCP(t *testing.T, s *Server, extra ...string) *mcpClient {
	t.Helper()
	m := &mcpClient{updated: make(chan string, 64), progress: make(chan string, 64), acked: make(chan struct{}, 16)}
	client := sdk.NewClient(&sdk.Implementation{Name: "herdr-e2e", Version: "1"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			select {
			case m.updated <- req.Params.URI:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			select {
			case m.progress <- req.Params.Message:
			default:
			}
		},
	})
	m.cmd = exec.Command(HerdrBin, "--session", s.Name, "mcp")
	m.cmd.Env = append(slices.Clone(s.Env), extra...)
	m.cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	session, err := client.Connect(ctx, ackedTransport{&sdk.CommandTransport{Command: m.cmd}, m.acked}, nil)
	if err != nil {
		t.Fatalf("connect to herdr mcp: %v", err)
	}
	m.ClientSession = session
	t.Cleanup(func() { session.Close() })
	return m
}

// call calls a tool and returns its result (an MCP error fails the test).
func (m *mcpClient) call(t *testing.T, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	res, err := m.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured result.
func mcpOK[T any](t *testing.T, m *mcpClient, name string, args map[string]any) T {
	t.Helper()
	res := m.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, mcpText(res))
	}
	var out T
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	return out
}

// mcpFail calls a tool that must fail with a tool error starting with prefix.
func mcpFail(t *testing.T, m *mcpClient, name string, args map[string]any, prefix string) {
	t.Helper()
	res := m.call(t, name, args)
	if !res.IsError || !strings.HasPrefix(mcpText(res), prefix) {
		t.Fatalf("%s %v: isError %v, %q; want a tool error starting %q", name, args, res.IsError, mcpText(res), prefix)
	}
}

func mcpText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func toolNames(t *testing.T, m *mcpClient) map[string]*sdk.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	list, err := m.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*sdk.Tool{}
	for _, tl := range list.Tools {
		tools[tl.Name] = tl
	}
	return tools
}

// schemaOf decodes a tool's schema for looking into it.
type schemaOf struct {
	Type       any                  `json:"type"`
	Required   []string             `json:"required"`
	Properties map[string]*schemaOf `json:"properties"`
	Items      *schemaOf            `json:"items"`
	Enum       []any                `json:"enum"`
}

func decodeSchema(t *testing.T, v any) schemaOf {
	t.Helper()
	b, _ := json.Marshal(v)
	var s schemaOf
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema %s: %v", b, err)
	}
	return s
}

// An agent drives herdr through MCP: it lists the tools with their
// schemas, starts the fake claude in a worktree workspace of a real
// repository, subscribes to its pane, prompts it, waits (with progress
// notifications) for it to settle, and reads what it printed.
func TestMCP_AgentInWorktree(t *testing.T) {
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(FakeClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.Env { // every pane's shell finds the fake claude first
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			h.Env[i] = "PATH=" + bin + ":" + v
		}
	}
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "mcp")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})
	m := startMCP(t, s)

	tools := toolNames(t, m)
	for _, name := range []string{"list_workspaces", "list_panes", "list_agents", "read_pane", "send_text", "send_keys", "start_agent",
		"start_agent_in_worktree", "prompt_agent", "wait_agent", "wait_output", "focus_pane", "close_pane", "close_workspace"} {
		if tools[name] == nil || tools[name].Description == "" || tools[name].InputSchema == nil || tools[name].OutputSchema == nil {
			t.Fatalf("tool %s missing or without description and schemas: %+v", name, tools[name])
		}
	}
	in := decodeSchema(t, tools["start_agent_in_worktree"].InputSchema)
	if in.Type != "object" || !slices.Contains(in.Required, "name") || !slices.Contains(in.Required, "kind") || slices.Contains(in.Required, "branch") ||
		!slices.Contains(in.Properties["kind"].Enum, any("claude")) {
		t.Fatalf("start_agent_in_worktree input schema: %+v", in)
	}
	if w := decodeSchema(t, tools["wait_agent"].InputSchema); w.Properties["until"].Items == nil || !slices.Contains(w.Properties["until"].Items.Enum, any("done")) {
		t.Fatalf("wait_agent until schema: %+v", w.Properties["until"])
	}
	if out := decodeSchema(t, tools["list_agents"].OutputSchema); out.Properties["agents"] == nil {
		t.Fatalf("list_agents output schema: %+v", out)
	}

	type started struct {
		Agent     protocol.AgentInfo     `json:"agent"`
		Workspace protocol.WorkspaceInfo `json:"workspace"`
		Worktree  protocol.WorktreeInfo  `json:"worktree"`
	}
	st := mcpOK[started](t, m, "start_agent_in_worktree", map[string]any{"name": "helper", "kind": "claude", "workspace_id": "w1", "branch": "feature/mcp"})
	if st.Agent.Name == nil || *st.Agent.Name != "helper" || !st.Agent.InteractiveReady || st.Worktree.Branch == nil || *st.Worktree.Branch != "feature/mcp" ||
		!st.Worktree.IsLinkedWorktree || st.Workspace.WorkspaceID == "w1" || st.Agent.WorkspaceID != st.Workspace.WorkspaceID {
		t.Fatalf("start_agent_in_worktree: %+v", st)
	}
	if out, err := exec.Command("git", "-C", st.Worktree.Path, "branch", "--show-current").Output(); err != nil || strings.TrimSpace(string(out)) != "feature/mcp" {
		t.Fatalf("the worktree's checkout: %q %v", out, err)
	}
	pane := st.Agent.PaneID
	agents := mcpOK[protocol.AgentList](t, m, "list_agents", nil)
	if len(agents.Agents) != 1 || agents.Agents[0].PaneID != pane {
		t.Fatalf("list_agents: %+v", agents)
	}

	// The pane's resource: its text now, and a notification when it prints.
	uri := "herdr://pane/" + pane
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	read, err := m.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, "claude ready") {
		t.Fatalf("read %s: %+v %v", uri, read, err)
	}
	m.subscribe(t, ctx, uri)
	prompted := mcpOK[struct{ Agent protocol.AgentInfo }](t, m, "prompt_agent", map[string]any{"target": "helper", "text": "w", "wait": true, "until": []string{"working"}, "timeout_ms": 10000})
	if prompted.Agent.AgentStatus != protocol.StatusWorking {
		t.Fatalf("prompt_agent: %+v", prompted.Agent)
	}
	select {
	case got := <-m.updated:
		if got != uri {
			t.Fatalf("resource updated: %s, want %s", got, uri)
		}
	case <-time.After(CallTimeout):
		t.Fatal("no resources/updated after the pane printed")
	}

	// A wait with a progress token: the agent is told to finish only once
	// the first progress notification has arrived.
	waited := make(chan *sdk.CallToolResult, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "wait_agent", Arguments: map[string]any{"target": "helper", "until": []string{"idle", "done"}, "timeout_ms": 15000}}
		params.SetProgressToken("wait-1")
		res, err := m.CallTool(ctx, params)
		if err != nil {
			res = &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
		}
		waited <- res
	}()
	select {
	case msg := <-m.progress:
		if !strings.Contains(msg, "helper") {
			t.Fatalf("progress message %q", msg)
		}
	case <-time.After(CallTimeout):
		t.Fatal("no progress notification while waiting")
	}
	mcpOK[struct{ Agent protocol.AgentInfo }](t, m, "prompt_agent", map[string]any{"target": pane, "text": "i"})
	res := <-waited
	if res.IsError {
		t.Fatalf("wait_agent: %s", mcpText(res))
	}
	var w struct{ Agent protocol.AgentInfo }
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &w)
	if w.Agent.AgentStatus != protocol.StatusIdle && w.Agent.AgentStatus != protocol.StatusDone {
		t.Fatalf("wait_agent: %+v", w.Agent)
	}

	matched := mcpOK[protocol.OutputMatched](t, m, "wait_output", map[string]any{"pane_id": pane, "pattern": "All tests (pass|fail)", "regex": true, "timeout_ms": 10000})
	if matched.MatchedLine == nil || !strings.Contains(*matched.MatchedLine, "Done. All tests pass.") {
		t.Fatalf("wait_output: %+v", matched)
	}
	text := mcpOK[protocol.PaneReadResult](t, m, "read_pane", map[string]any{"pane_id": pane, "source": "visible"})
	if !strings.Contains(text.Text, "Done. All tests pass.") || strings.Contains(text.Text, "\x1b") {
		t.Fatalf("read_pane: %q", text.Text)
	}
	snap, err := m.ReadResource(ctx, &sdk.ReadResourceParams{URI: "herdr://session"})
	if err != nil || !strings.Contains(snap.Contents[0].Text, `"agents":[`) || !strings.Contains(snap.Contents[0].Text, `"name":"helper"`) {
		t.Fatalf("session resource: %+v %v", snap, err)
	}

	// A second agent in a new pane split off w1's, driven by raw input,
	// focused, then closed.
	second := mcpOK[started](t, m, "start_agent", map[string]any{"name": "second", "kind": "claude", "pane_id": "w1:p1", "direction": "down"})
	p2 := second.Agent.PaneID
	if !second.Agent.InteractiveReady || second.Agent.WorkspaceID != "w1" || p2 == "w1:p1" {
		t.Fatalf("start_agent: %+v", second.Agent)
	}
	mcpOK[struct{ OK bool }](t, m, "send_text", map[string]any{"pane_id": p2, "text": "b", "enter": true})
	if w := mcpOK[struct{ Agent protocol.AgentInfo }](t, m, "wait_agent", map[string]any{"target": "second", "until": []string{"blocked"}, "timeout_ms": 10000}); w.Agent.AgentStatus != protocol.StatusBlocked {
		t.Fatalf("after send_text b: %+v", w.Agent)
	}
	if f := mcpOK[protocol.PaneInfoResult](t, m, "focus_pane", map[string]any{"pane_id": p2}); !f.Pane.Focused {
		t.Fatalf("focus_pane: %+v", f.Pane)
	}
	mcpOK[struct{ OK bool }](t, m, "send_keys", map[string]any{"pane_id": p2, "keys": []string{"q", "Enter"}})
	mcpOK[struct{ OK bool }](t, m, "close_pane", map[string]any{"pane_id": p2})
	if ag := mcpOK[protocol.AgentList](t, m, "list_agents", nil); len(ag.Agents) != 1 || ag.Agents[0].PaneID != pane {
		t.Fatalf("agents after closing the second: %+v", ag.Agents)
	}
}

// Bad input gets MCP errors (unknown and hidden tools, wrong types,
// unknown ids) and the server keeps serving; [mcp] allow hides tools; the
// caller's own pane is not closed; allow_close and allow_start switch
// their tools off.
func TestMCP_BadInputAndSafety(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	s.Home.WriteConfig(t, "[mcp]\nallow = [\"list_panes\", \"read_pane\", \"close_pane\", \"send_keys\"]\n")
	m := startMCP(t, s, "HERDR_PANE_ID=w1:p1", "HERDR_SOCKET_PATH="+s.Socket)

	tools := toolNames(t, m)
	if len(tools) != 4 || tools["list_panes"] == nil || tools["close_pane"] == nil || tools["list_agents"] != nil {
		t.Fatalf("tools under allow: %v", tools)
	}
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	for _, name := range []string{"list_agents", "no_such_tool"} { // hidden, unknown: not callable
		if res, err := m.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{}}); err == nil && !res.IsError {
			t.Fatalf("%s: called: %+v", name, res)
		}
	}
	mcpFail(t, m, "read_pane", map[string]any{"pane_id": 42}, "validating")
	mcpFail(t, m, "read_pane", map[string]any{}, "validating")
	mcpFail(t, m, "read_pane", map[string]any{"pane_id": "w1:p1", "source": "sideways"}, "validating")
	mcpFail(t, m, "read_pane", map[string]any{"pane_id": "w9:p9"}, "pane_not_found: ")
	mcpFail(t, m, "send_keys", map[string]any{"pane_id": "w1:p2", "keys": []string{"ctrl+nope"}}, "invalid_key: ")
	mcpFail(t, m, "close_pane", map[string]any{"pane_id": "w1:p1"}, "caller_pane_protected: ")
	OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info")
	if _, err := m.ReadResource(ctx, &sdk.ReadResourceParams{URI: "herdr://pane/w9:p9"}); err == nil {
		t.Fatal("read the resource of a pane that does not exist")
	}
	m.subscribe(t, ctx, "herdr://session")
	mcpOK[struct{ OK bool }](t, m, "close_pane", map[string]any{"pane_id": "w1:p2"})
	select { // the close is on the event bus, and the session resource says it changed
	case got := <-m.updated:
		if got != "herdr://session" {
			t.Fatalf("updated %s", got)
		}
	case <-time.After(CallTimeout):
		t.Fatal("no resources/updated for herdr://session after a pane closed")
	}
	panes := mcpOK[protocol.PaneList](t, m, "list_panes", nil)
	if len(panes.Panes) != 1 || panes.Panes[0].PaneID != "w1:p1" {
		t.Fatalf("panes after the close: %+v", panes)
	}
	if m.cmd.ProcessState != nil {
		t.Fatal("herdr mcp exited")
	}

	s.Home.WriteConfig(t, "[mcp]\nallow_close = false\nallow_start = false\n")
	m2 := startMCP(t, s)
	tools = toolNames(t, m2)
	for _, gone := range []string{"close_pane", "close_workspace", "start_agent", "start_agent_in_worktree"} {
		if tools[gone] != nil {
			t.Fatalf("%s offered with allow_close and allow_start off", gone)
		}
	}
	if tools["list_agents"] == nil || tools["prompt_agent"] == nil {
		t.Fatalf("tools: %v", tools)
	}
}

// `herdr integration install claude` registers herdr mcp in Claude Code's
// user settings beside the user's servers, and uninstall takes it out.
func TestMCP_IntegrationRegistersServer(t *testing.T) {
	s := StartServer(t)
	home := HomeDir(t, s.Home)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".claude.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"mine":{"command":"my-mcp","args":[]}},"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	servers := func() map[string]struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	} {
		var f struct {
			Theme      string `json:"theme"`
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		b, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(b, &f) != nil || f.Theme != "dark" {
			t.Fatalf("%s: %v\n%s", path, err, b)
		}
		return f.MCPServers
	}
	if out, errOut, code := s.CLI("integration", "install", "claude"); code != 0 {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	if got := servers(); got["mine"].Command != "my-mcp" || got["herdr"].Command == "" || strings.Join(got["herdr"].Args, " ") != "mcp" {
		t.Fatalf("after install: %+v", got)
	}
	if out, errOut, code := s.CLI("integration", "uninstall", "claude"); code != 0 {
		t.Fatalf("uninstall: %d %s %s", code, out, errOut)
	}
	if got := servers(); got["mine"].Command != "my-mcp" || len(got) != 1 {
		t.Fatalf("after uninstall: %+v", got)
	}
}

// herdr mcp starts the session's server when none runs, as other verbs
// do; the front (cmd/herdr) links no MCP SDK: herdr-full serves it.
func TestMCP_StartsTheServer(t *testing.T) {
	h := NewHome(t)
	s := &Server{T: t, Home: h, Name: "mcpstart", Socket: h.Socket("mcpstart"), Env: h.Env}
	m := startMCP(t, s)
	t.Cleanup(func() { RunCLI(t, h.Env, "--session", s.Name, "server", "stop") })
	if ws := mcpOK[protocol.WorkspaceList](t, m, "list_workspaces", nil); ws.Workspaces == nil {
		t.Fatalf("list_workspaces: %+v", ws)
	}
	if Refused(s.Socket) {
		t.Fatal("no server listens after herdr mcp started")
	}

	cmd := exec.Command("go", "list", "-deps", "./cmd/herdr")
	cmd.Dir = ModuleRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if deps := strings.Fields(string(out)); slices.Contains(deps, "github.com/modelcontextprotocol/go-sdk/mcp") || slices.Contains(deps, "github.com/herdr-go/herdr/cli/mcp") {
		t.Error("cmd/herdr links the MCP server")
	}
}

// The task board's tools: a coordinator creates a chain of tasks, reads
// the board and reports; the board's refusals come back as tool errors
// with their code.
func TestMCP_TaskBoardTools(t *testing.T) {
	s := StartServer(t)
	m := startMCP(t, s)
	tools := toolNames(t, m)
	for _, name := range []string{"task_create", "task_list", "task_get", "task_dispatch", "task_report"} {
		if tools[name] == nil || tools[name].Description == "" || tools[name].InputSchema == nil || tools[name].OutputSchema == nil {
			t.Fatalf("tool %s missing or without description and schemas", name)
		}
	}
	first := mcpOK[protocol.TaskInfoResult](t, m, "task_create", map[string]any{"title": "Add retry policy", "description": "three retries", "priority": 1})
	second := mcpOK[protocol.TaskInfoResult](t, m, "task_create", map[string]any{"title": "Document retries", "depends_on": []string{first.Task.ID}})
	if first.Task.Status != protocol.TaskReady || second.Task.Status != protocol.TaskBacklog {
		t.Fatalf("created %s %s, want ready and backlog", first.Task.Status, second.Task.Status)
	}
	ready := mcpOK[protocol.TaskList](t, m, "task_list", map[string]any{"status": []string{"ready"}})
	if len(ready.Tasks) != 1 || ready.Tasks[0].ID != first.Task.ID {
		t.Fatalf("ready tasks %+v", ready.Tasks)
	}
	mcpOK[protocol.TaskInfoResult](t, m, "task_report", map[string]any{"task_id": first.Task.ID, "status": "running", "message": "started"})
	mcpFail(t, m, "task_report", map[string]any{"task_id": first.Task.ID, "status": "done"}, "invalid_task_transition")
	mcpFail(t, m, "task_dispatch", map[string]any{"task_id": second.Task.ID, "target": "nobody"}, "task_not_ready")
	mcpFail(t, m, "task_get", map[string]any{"task_id": "task-99"}, "task_not_found")
	mcpOK[protocol.TaskInfoResult](t, m, "task_report", map[string]any{"task_id": first.Task.ID, "status": "review", "message": "tests pass"})
	mcpOK[protocol.TaskInfoResult](t, m, "task_report", map[string]any{"task_id": first.Task.ID, "status": "done"})
	got := mcpOK[protocol.TaskInfoResult](t, m, "task_get", map[string]any{"task_id": second.Task.ID})
	if got.Task.Status != protocol.TaskReady {
		t.Fatalf("the dependent task after its dependency was done: %s", got.Task.Status)
	}
	done := mcpOK[protocol.TaskInfoResult](t, m, "task_get", map[string]any{"task_id": first.Task.ID})
	var messages []string
	for _, a := range done.Task.Activities {
		if a.Message != "" {
			messages = append(messages, a.Message)
		}
	}
	if !slices.Contains(messages, "started") || !slices.Contains(messages, "tests pass") {
		t.Fatalf("the task's history lacks the reports: %+v", done.Task.Activities)
	}
}
