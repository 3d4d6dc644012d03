package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// fakeHerdr answers socket requests with handle; every request it got is
// recorded by method.
type fakeHerdr struct {
	handle func(method string, params json.RawMessage) (any, error)
	mu     sync.Mutex
	seen   []string
}

func (f *fakeHerdr) dial() (*protocol.Client, error) {
	client, server := net.Pipe()
	go func() {
		defer server.Close()
		r := bufio.NewReader(server)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var req protocol.Request
			json.Unmarshal(line, &req)
			f.mu.Lock()
			f.seen = append(f.seen, req.Method)
			f.mu.Unlock()
			result, herr := f.handle(req.Method, req.Params)
			resp := protocol.Response{ID: req.ID}
			var pe *protocol.Error
			if errors.As(herr, &pe) {
				resp.Error = &protocol.ErrorBody{Code: pe.Code, Message: pe.Message}
			} else if herr != nil {
				return // the connection drops
			} else {
				resp.Result, _ = json.Marshal(result)
			}
			out, _ := json.Marshal(resp)
			if _, err := server.Write(append(out, '\n')); err != nil {
				return
			}
		}
	}()
	return protocol.NewClient(client), nil
}

func (f *fakeHerdr) methods() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.seen)
}

// connect runs a server with opts (Dial from f) and connects a client.
func connect(t *testing.T, f *fakeHerdr, opts Options, copts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts.Dial = f.dial
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(ctx, opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func listed(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func text(res *sdk.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*sdk.TextContent); ok {
		return tc.Text
	}
	return ""
}

func notFound(string, json.RawMessage) (any, error) {
	return nil, protocol.Errorf(protocol.CodePaneNotFound, "no pane w9:p9")
}

// allow lists and admits only the tools it names; allow_start and
// allow_close take their tools away whatever allow says; an empty allow
// offers nothing.
func TestTools_AllowAndSwitches(t *testing.T) {
	f := &fakeHerdr{handle: notFound}
	all := ToolNames()
	for _, tt := range []struct {
		opts Options
		want []string
	}{
		{Options{AllowStart: true, AllowClose: true}, all},
		{Options{Allow: []string{"read_pane", "close_pane", "start_agent"}, AllowStart: true, AllowClose: true}, []string{"read_pane", "start_agent", "close_pane"}},
		{Options{Allow: []string{"read_pane", "close_pane", "start_agent"}}, []string{"read_pane"}},
		{Options{Allow: []string{}, AllowStart: true, AllowClose: true}, nil},
	} {
		got := listed(t, connect(t, f, tt.opts, nil))
		slices.Sort(got)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("allow %v start %v close %v: %v, want %v", tt.opts.Allow, tt.opts.AllowStart, tt.opts.AllowClose, got, tt.want)
		}
	}
	cs := connect(t, f, Options{Allow: []string{"read_pane"}}, nil)
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_panes", Arguments: map[string]any{}}); err == nil {
		t.Fatal("a tool allow leaves out was called")
	}
	if slices.Contains(f.methods(), "pane.list") {
		t.Fatal("the hidden tool reached the server")
	}
}

// herdr's errors come back as tool errors with its code and message; an
// unreachable server is server_not_running; the MCP server keeps serving.
func TestTools_ErrorsCarryHerdrCode(t *testing.T) {
	f := &fakeHerdr{handle: notFound}
	cs := connect(t, f, Options{AllowStart: true, AllowClose: true}, nil)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "read_pane", Arguments: map[string]any{"pane_id": "w9:p9"}})
	if err != nil || !res.IsError || text(res) != "pane_not_found: no pane w9:p9" {
		t.Fatalf("read_pane: %v %+v %q", err, res, text(res))
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "start_agent", Arguments: map[string]any{"name": "Bad Name", "kind": "claude"}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(res), "invalid_agent_name: ") || slices.Contains(f.methods(), "pane.split") {
		t.Fatalf("start_agent with a bad name: %v %q %v", err, text(res), f.methods())
	}
	opts := Options{Dial: func() (*protocol.Client, error) { return nil, errors.New("connection refused") }}
	st, ct := sdk.NewInMemoryTransports()
	ctx := t.Context()
	if _, err := New(ctx, opts).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs2, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = cs2.CallTool(ctx, &sdk.CallToolParams{Name: "list_workspaces", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(res), "server_not_running: ") {
		t.Fatalf("server down: %v %q", err, text(res))
	}
}

// The caller's pane is recognised by its terminal, whatever id it has
// now: a close of it is refused before anything is sent; others close.
func TestTools_CallerPaneIsNotClosed(t *testing.T) {
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		var p protocol.PaneTarget
		json.Unmarshal(params, &p)
		switch method {
		case "pane.get":
			term := map[string]string{"w1:p1": "term_a", "w2:p1": "term_a", "w1:p2": "term_b"}[p.PaneID]
			return protocol.PaneInfoResult{Pane: protocol.PaneInfo{PaneID: p.PaneID, TerminalID: term}}, nil
		case "pane.close":
			return protocol.OK{}, nil
		}
		return notFound(method, params)
	}}
	cs := connect(t, f, Options{AllowClose: true, CallerPane: "w1:p1"}, nil)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "close_pane", Arguments: map[string]any{"pane_id": "w2:p1"}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(res), "caller_pane_protected: ") || slices.Contains(f.methods(), "pane.close") {
		t.Fatalf("closing the caller (moved to w2:p1): %v %q %v", err, text(res), f.methods())
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "close_pane", Arguments: map[string]any{"pane_id": "w1:p2"}})
	if err != nil || res.IsError || !slices.Contains(f.methods(), "pane.close") {
		t.Fatalf("closing another pane: %v %q", err, text(res))
	}
}

// A subscribed pane resource is announced updated when the server's
// events.wait answers a change past the revision seen, and the next wait
// starts from that revision.
func TestResources_SubscriptionFollowsRevisions(t *testing.T) {
	waits := make(chan uint64, 8)
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "pane.get":
			return protocol.PaneInfoResult{Pane: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "t", Revision: 4}}, nil
		case "events.wait":
			var p protocol.EventsWaitParams
			json.Unmarshal(params, &p)
			waits <- *p.MatchEvent.SeenRevision
			if *p.MatchEvent.SeenRevision == 4 {
				ev, _ := protocol.EncodeEvent(protocol.PaneOutputChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", Revision: 9}, 0)
				return protocol.WaitMatched{Event: ev}, nil
			}
			time.Sleep(time.Hour) // the next change never comes; the test's end closes the pipe
		}
		return notFound(method, params)
	}}
	updated := make(chan string, 4)
	cs := connect(t, f, Options{}, &sdk.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
		updated <- req.Params.URI
	}})
	if err := cs.Subscribe(context.Background(), &sdk.SubscribeParams{URI: "herdr://pane/w1:p1"}); err != nil {
		t.Fatal(err)
	}
	if got := <-updated; got != "herdr://pane/w1:p1" {
		t.Fatalf("updated %s", got)
	}
	if first, next := <-waits, <-waits; first != 4 || next != 9 {
		t.Fatalf("waits from revisions %d then %d, want 4 then 9", first, next)
	}
}

// close_workspace with close_group refuses when the caller sits in a
// worktree workspace of the group; the workspace alone closes.
func TestTools_CallerWorkspaceGroupIsNotClosed(t *testing.T) {
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "pane.get":
			return protocol.PaneInfoResult{Pane: protocol.PaneInfo{PaneID: "w3:p1", TerminalID: "term_caller"}}, nil
		case "workspace.list":
			grp := &protocol.WorkspaceWorktreeInfo{RepoKey: "k"}
			return protocol.WorkspaceList{Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: "w1", Worktree: grp}, {WorkspaceID: "w2"}, {WorkspaceID: "w3", Worktree: grp}}}, nil
		case "pane.list":
			var p protocol.PaneListParams
			json.Unmarshal(params, &p)
			term := map[string]string{"w1": "term_1", "w3": "term_caller"}[*p.WorkspaceID]
			return protocol.PaneList{Panes: []protocol.PaneInfo{{PaneID: *p.WorkspaceID + ":p1", TerminalID: term}}}, nil
		case "workspace.close":
			return protocol.OK{}, nil
		}
		return notFound(method, params)
	}}
	cs := connect(t, f, Options{AllowClose: true, CallerPane: "w3:p1"}, nil)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "close_workspace", Arguments: map[string]any{"workspace_id": "w1", "close_group": true}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(res), "caller_pane_protected: ") || slices.Contains(f.methods(), "workspace.close") {
		t.Fatalf("closing the caller's group: %v %q %v", err, text(res), f.methods())
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "close_workspace", Arguments: map[string]any{"workspace_id": "w1"}})
	if err != nil || res.IsError || !slices.Contains(f.methods(), "workspace.close") {
		t.Fatalf("closing w1 alone: %v %q", err, text(res))
	}
}

// A pane resource takes any pane id, a machine-qualified one too, and
// reads the pane's recent text, ANSI stripped.
func TestResources_PaneRead(t *testing.T) {
	var asked protocol.PaneReadParams
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		if method == "pane.read" {
			json.Unmarshal(params, &asked)
			return protocol.PaneRead{Read: protocol.PaneReadResult{PaneID: asked.PaneID, Text: "hello\n"}}, nil
		}
		return notFound(method, params)
	}}
	cs := connect(t, f, Options{}, nil)
	res, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "herdr://pane/build/w1:p2"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "hello\n" || res.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("read: %+v %v", res, err)
	}
	if asked.PaneID != "build/w1:p2" || asked.Source != protocol.SourceRecent || asked.StripANSI == nil || !*asked.StripANSI || *asked.Lines != paneResourceLines {
		t.Fatalf("pane.read params %+v", asked)
	}
}
