package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// tool is one MCP tool: its name, whether it starts programs or closes
// things (the switches of [mcp]), and how it is added to a server.
type tool struct {
	name           string
	starts, closes bool
	add            func(*sdk.Server)
}

// schemaHints add to a derived input schema what Go types cannot say:
// allowed values and defaults, by property.
type schemaHints struct {
	enum     map[string][]any
	defaults map[string]any
}

// define makes a typed tool: its input schema derived from In (property
// descriptions from jsonschema tags) plus hints, its output schema from Out.
func define[In, Out any](name, desc string, ann *sdk.ToolAnnotations, hints schemaHints, run func(context.Context, *sdk.CallToolRequest, In) (Out, error)) tool {
	return tool{name: name, add: func(s *sdk.Server) {
		schema, err := jsonschema.For[In](nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
		}
		for prop, values := range hints.enum {
			p := schema.Properties[prop]
			if p.Items != nil {
				p = p.Items
			}
			p.Enum = values
		}
		for prop, v := range hints.defaults {
			b, _ := json.Marshal(v)
			schema.Properties[prop].Default = b
		}
		sdk.AddTool(s, &sdk.Tool{Name: name, Description: desc, InputSchema: schema, Annotations: ann},
			func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
				out, err := run(ctx, req, in)
				return nil, out, err
			})
	}}
}

func starts(t tool) tool { t.starts = true; return t }
func closes(t tool) tool { t.closes = true; return t }

var (
	readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: protocol.Ptr(false)}
	acting   = &sdk.ToolAnnotations{OpenWorldHint: protocol.Ptr(false), DestructiveHint: protocol.Ptr(false)}
	closing  = &sdk.ToolAnnotations{OpenWorldHint: protocol.Ptr(false), DestructiveHint: protocol.Ptr(true)}
)

func anyOf[T ~string](list ...T) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

var (
	statuses   = anyOf(protocol.StatusIdle, protocol.StatusWorking, protocol.StatusBlocked, protocol.StatusDone, protocol.StatusUnknown)
	kinds      = anyOf(protocol.AgentKinds...)
	sources    = anyOf(protocol.SourceRecent, protocol.SourceVisible, protocol.SourceRecentUnwrapped, protocol.SourceDetection)
	directions = anyOf("right", "down")
)

// The default timeouts of the tools that wait.
const (
	defaultWaitMS  = 60000
	defaultStartMS = 30000
)

// tools lists every tool in the order they are listed.
func (h *herdr) tools() []tool {
	return append(append(append(append([]tool{
		define("list_workspaces", "List the workspaces: id (w1), label, focus, pane and tab counts, rolled-up agent status, git worktree.",
			readOnly, schemaHints{}, h.listWorkspaces),
		define("list_panes", "List the panes (all, or of one workspace): pane id (w1:p2), terminal id, cwd, agent and its status, focus.",
			readOnly, schemaHints{}, h.listPanes),
		define("list_agents", `List the panes that run a recognised agent, with name, kind, status (idle, working, blocked, done) and whether it is ready for input. machines: "all" adds every saved machine's agents, with machine-qualified ids.`,
			readOnly, schemaHints{enum: map[string][]any{"machines": {"all"}}}, h.listAgents),
		define("read_pane", "Read a pane's text: its recent output (the default, with scrollback) or the visible screen, the last lines lines, ANSI escapes stripped unless ansi is true.",
			readOnly, schemaHints{enum: map[string][]any{"source": sources}, defaults: map[string]any{"source": protocol.SourceRecent, "lines": 200}}, h.readPane),
		define("send_text", "Type text into a pane (pasted when the program asks for bracketed paste); enter: true presses Enter after it.",
			acting, schemaHints{}, h.sendText),
		define("send_keys", `Send key combos to a pane, e.g. ["Enter"], ["ctrl+c"], ["Up","Up","Enter"].`,
			acting, schemaHints{}, h.sendKeys),
		starts(define("start_agent", "Start an agent in a new pane split off pane_id (default: the caller's pane, else the focused one), name it and wait until it is ready for input.",
			acting, schemaHints{enum: map[string][]any{"kind": kinds, "direction": directions}, defaults: map[string]any{"direction": "right", "timeout_ms": defaultStartMS}}, h.startAgent)),
		starts(define("start_agent_in_worktree", "Create a git worktree (a new branch) of a workspace's repository, open it as a new workspace and start a named agent there; waits until it is ready for input.",
			acting, schemaHints{enum: map[string][]any{"kind": kinds}, defaults: map[string]any{"timeout_ms": defaultStartMS}}, h.startAgentInWorktree)),
		define("prompt_agent", "Type a prompt into an agent and press Enter; wait: true waits until it settles (until: statuses, default idle, done, blocked).",
			acting, schemaHints{enum: map[string][]any{"until": statuses}}, h.promptAgent),
		define("wait_agent", "Wait until an agent reaches one of the until statuses (default idle, done, blocked), or timeout_ms; sends progress notifications while waiting when asked for them.",
			readOnly, schemaHints{enum: map[string][]any{"until": statuses}, defaults: map[string]any{"timeout_ms": defaultWaitMS}}, h.waitAgent),
		define("wait_output", "Wait until a pane's output contains pattern (a substring, or a regular expression with regex: true), or timeout_ms; answers the matching line and the read. Sends progress notifications while waiting when asked for them.",
			readOnly, schemaHints{enum: map[string][]any{"source": sources}, defaults: map[string]any{"source": protocol.SourceRecent, "timeout_ms": defaultWaitMS}}, h.waitOutput),
		define("focus_pane", "Focus a pane, with its tab and workspace, in the interactive client.",
			acting, schemaHints{}, h.focusPane),
		closes(define("close_pane", "Close a pane and stop what runs in it. The caller's own pane is refused.",
			closing, schemaHints{}, h.closePane)),
		closes(define("close_workspace", "Close a workspace with every pane in it. The caller's own workspace is refused.",
			closing, schemaHints{}, h.closeWorkspace)),
	}, h.taskTools()...), h.loopTools()...), h.reviewTools()...), h.auditTools()...)
}

// --- lists and reads -------------------------------------------------------

type noInput struct{}

func (h *herdr) listWorkspaces(ctx context.Context, _ *sdk.CallToolRequest, _ noInput) (protocol.WorkspaceList, error) {
	var r protocol.WorkspaceList
	return r, h.call(ctx, "workspace.list", nil, &r)
}

type listPanesIn struct {
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"only the panes of this workspace (w1)"`
}

func (h *herdr) listPanes(ctx context.Context, _ *sdk.CallToolRequest, in listPanesIn) (protocol.PaneList, error) {
	var p protocol.PaneListParams
	if in.WorkspaceID != "" {
		p.WorkspaceID = &in.WorkspaceID
	}
	var r protocol.PaneList
	return r, h.call(ctx, "pane.list", p, &r)
}

type listAgentsIn struct {
	Machines string `json:"machines,omitempty" jsonschema:"all: add the agents of every saved machine"`
}

func (h *herdr) listAgents(ctx context.Context, _ *sdk.CallToolRequest, in listAgentsIn) (protocol.AgentList, error) {
	var r protocol.AgentList
	return r, h.call(ctx, "agent.list", protocol.FleetParams{FleetScope: protocol.FleetScope{Machines: in.Machines}}, &r)
}

type readPaneIn struct {
	PaneID string `json:"pane_id" jsonschema:"the pane (w1:p2, or machine/w1:p2)"`
	Source string `json:"source,omitempty" jsonschema:"recent: output with scrollback; visible: the screen; recent_unwrapped: long lines joined; detection: what agent detection reads"`
	Lines  uint32 `json:"lines,omitempty" jsonschema:"at most this many last lines"`
	ANSI   bool   `json:"ansi,omitempty" jsonschema:"keep colours and styles as ANSI escapes"`
}

func (h *herdr) readPane(ctx context.Context, _ *sdk.CallToolRequest, in readPaneIn) (protocol.PaneReadResult, error) {
	p := protocol.PaneReadParams{PaneID: in.PaneID, Source: in.Source, Format: protocol.FormatText, StripANSI: protocol.Ptr(!in.ANSI)}
	if p.Source == "" {
		p.Source = protocol.SourceRecent
	}
	if in.ANSI {
		p.Format = protocol.FormatANSI
	}
	if in.Lines > 0 {
		p.Lines = &in.Lines
	}
	var r protocol.PaneRead
	return r.Read, h.call(ctx, "pane.read", p, &r)
}

// --- input -----------------------------------------------------------------

// done is the answer of a tool that changes something and has nothing to tell.
type done struct {
	OK bool `json:"ok"`
}

type sendTextIn struct {
	PaneID string `json:"pane_id" jsonschema:"the pane (w1:p2)"`
	Text   string `json:"text" jsonschema:"the text to type"`
	Enter  bool   `json:"enter,omitempty" jsonschema:"press Enter after the text"`
}

func (h *herdr) sendText(ctx context.Context, _ *sdk.CallToolRequest, in sendTextIn) (done, error) {
	p := protocol.PaneSendInputParams{PaneID: in.PaneID, Text: in.Text}
	if in.Enter {
		p.Keys = []string{"Enter"}
	}
	return done{true}, h.call(ctx, "pane.send_input", p, nil)
}

type sendKeysIn struct {
	PaneID string   `json:"pane_id" jsonschema:"the pane (w1:p2)"`
	Keys   []string `json:"keys" jsonschema:"key combos in order: Enter, Tab, Escape, Up, ctrl+c, alt+x, F5, or a single character"`
}

func (h *herdr) sendKeys(ctx context.Context, _ *sdk.CallToolRequest, in sendKeysIn) (done, error) {
	return done{true}, h.call(ctx, "pane.send_keys", protocol.PaneSendKeysParams{PaneID: in.PaneID, Keys: in.Keys}, nil)
}

// --- agents ------------------------------------------------------------------

type agentOut struct {
	Agent protocol.AgentInfo `json:"agent"`
}

type promptAgentIn struct {
	Target    string                 `json:"target" jsonschema:"the agent: its name or its pane id"`
	Text      string                 `json:"text" jsonschema:"the prompt"`
	Wait      bool                   `json:"wait,omitempty" jsonschema:"wait until the agent has reacted and settled"`
	Until     []protocol.AgentStatus `json:"until,omitempty" jsonschema:"with wait: the statuses that end the wait (default idle, done, blocked)"`
	TimeoutMS uint64                 `json:"timeout_ms,omitempty" jsonschema:"with wait: give up after this many milliseconds"`
}

func (h *herdr) promptAgent(ctx context.Context, req *sdk.CallToolRequest, in promptAgentIn) (agentOut, error) {
	p := protocol.AgentPromptParams{Target: in.Target, Text: in.Text}
	if in.Wait {
		p.Wait = &protocol.AgentPromptWaitOptions{Until: in.Until}
		if in.TimeoutMS > 0 {
			p.Wait.TimeoutMS = &in.TimeoutMS
		}
	}
	var r protocol.AgentPrompted
	if !in.Wait {
		return agentOut{r.Agent}, h.call(ctx, "agent.prompt", p, &r)
	}
	err := h.withProgress(ctx, req, in.TimeoutMS, "waiting for agent "+in.Target+" to settle", func() error {
		return h.call(ctx, "agent.prompt", p, &r)
	})
	return agentOut{r.Agent}, err
}

type waitAgentIn struct {
	Target    string                 `json:"target" jsonschema:"the agent: its name or its pane id"`
	Until     []protocol.AgentStatus `json:"until,omitempty" jsonschema:"the statuses that end the wait (default idle, done, blocked)"`
	TimeoutMS uint64                 `json:"timeout_ms,omitempty" jsonschema:"give up after this many milliseconds (default 60000): a timeout error"`
}

func (h *herdr) waitAgent(ctx context.Context, req *sdk.CallToolRequest, in waitAgentIn) (agentOut, error) {
	if in.TimeoutMS == 0 {
		in.TimeoutMS = defaultWaitMS
	}
	var r protocol.AgentInfoResult
	err := h.withProgress(ctx, req, in.TimeoutMS, fmt.Sprintf("waiting for agent %s to be %v", in.Target, untilText(in.Until)), func() error {
		return h.call(ctx, "agent.wait", protocol.AgentWaitParams{Target: in.Target, Until: in.Until, TimeoutMS: &in.TimeoutMS}, &r)
	})
	return agentOut{r.Agent}, err
}

func untilText(until []protocol.AgentStatus) []protocol.AgentStatus {
	if len(until) == 0 {
		return protocol.DefaultUntil
	}
	return until
}

type waitOutputIn struct {
	PaneID    string `json:"pane_id" jsonschema:"the pane (w1:p2)"`
	Pattern   string `json:"pattern" jsonschema:"what to look for"`
	Regex     bool   `json:"regex,omitempty" jsonschema:"pattern is a regular expression (RE2), matched per line"`
	Source    string `json:"source,omitempty" jsonschema:"where to look: recent output (default) or the visible screen"`
	Lines     uint32 `json:"lines,omitempty" jsonschema:"look at only this many last lines"`
	TimeoutMS uint64 `json:"timeout_ms,omitempty" jsonschema:"give up after this many milliseconds (default 60000): a timeout error"`
}

func (h *herdr) waitOutput(ctx context.Context, req *sdk.CallToolRequest, in waitOutputIn) (protocol.OutputMatched, error) {
	if in.TimeoutMS == 0 {
		in.TimeoutMS = defaultWaitMS
	}
	p := protocol.PaneWaitForOutputParams{PaneID: in.PaneID, Source: in.Source, Match: protocol.OutputMatch{Type: "substring", Value: in.Pattern},
		StripANSI: protocol.Ptr(true), TimeoutMS: &in.TimeoutMS}
	if p.Source == "" {
		p.Source = protocol.SourceRecent
	}
	if in.Regex {
		p.Match.Type = "regex"
	}
	if in.Lines > 0 {
		p.Lines = &in.Lines
	}
	var r protocol.OutputMatched
	err := h.withProgress(ctx, req, in.TimeoutMS, fmt.Sprintf("waiting for %q in %s", in.Pattern, in.PaneID), func() error {
		return h.call(ctx, "pane.wait_for_output", p, &r)
	})
	return r, err
}

// --- focus and close -----------------------------------------------------------

type paneIn struct {
	PaneID string `json:"pane_id" jsonschema:"the pane (w1:p2)"`
}

func (h *herdr) focusPane(ctx context.Context, _ *sdk.CallToolRequest, in paneIn) (protocol.PaneInfoResult, error) {
	var r protocol.PaneInfoResult
	return r, h.call(ctx, "pane.focus", protocol.PaneTarget{PaneID: in.PaneID}, &r)
}

func (h *herdr) closePane(ctx context.Context, _ *sdk.CallToolRequest, in paneIn) (done, error) {
	var r protocol.PaneInfoResult
	if err := h.call(ctx, "pane.get", protocol.PaneTarget{PaneID: in.PaneID}, &r); err != nil {
		return done{}, err
	}
	if h.isCaller(r.Pane) {
		return done{}, &toolError{codeCallerProtected, fmt.Sprintf("pane %s is the caller's own pane; closing it is not allowed ([mcp] allow_close_caller)", in.PaneID)}
	}
	return done{true}, h.call(ctx, "pane.close", protocol.PaneTarget{PaneID: r.Pane.PaneID}, nil)
}

type closeWorkspaceIn struct {
	WorkspaceID string `json:"workspace_id" jsonschema:"the workspace (w1)"`
	CloseGroup  bool   `json:"close_group,omitempty" jsonschema:"also close the worktree workspaces grouped under a repository's main checkout"`
}

func (h *herdr) closeWorkspace(ctx context.Context, _ *sdk.CallToolRequest, in closeWorkspaceIn) (done, error) {
	closing := []string{in.WorkspaceID}
	if in.CloseGroup && h.opts.CallerPane != "" && !h.opts.AllowCloseCaller {
		group, err := h.worktreeGroup(ctx, in.WorkspaceID)
		if err != nil {
			return done{}, err
		}
		closing = append(closing, group...)
	}
	for _, ws := range closing {
		var panes protocol.PaneList
		if err := h.call(ctx, "pane.list", protocol.PaneListParams{WorkspaceID: &ws}, &panes); err != nil {
			return done{}, err
		}
		for _, p := range panes.Panes {
			if h.isCaller(p) {
				return done{}, &toolError{codeCallerProtected, fmt.Sprintf("closing workspace %s would close the caller's own pane %s; it is not allowed ([mcp] allow_close_caller)", in.WorkspaceID, p.PaneID)}
			}
		}
	}
	return done{true}, h.call(ctx, "workspace.close", protocol.WorkspaceCloseParams{WorkspaceID: in.WorkspaceID, CloseGroup: in.CloseGroup}, nil)
}

// worktreeGroup lists the other workspaces of ws's repository, which a
// close_group close takes with it.
func (h *herdr) worktreeGroup(ctx context.Context, ws string) ([]string, error) {
	var list protocol.WorkspaceList
	if err := h.call(ctx, "workspace.list", nil, &list); err != nil {
		return nil, err
	}
	key := ""
	for _, w := range list.Workspaces {
		if w.WorkspaceID == ws && w.Worktree != nil {
			key = w.Worktree.RepoKey
		}
	}
	var group []string
	for _, w := range list.Workspaces {
		if key != "" && w.WorkspaceID != ws && w.Worktree != nil && w.Worktree.RepoKey == key {
			group = append(group, w.WorkspaceID)
		}
	}
	return group, nil
}

// codeCallerProtected refuses closing the caller's own pane.
const codeCallerProtected = "caller_pane_protected"

// isCaller reports whether p is the pane the MCP client runs in.
func (h *herdr) isCaller(p protocol.PaneInfo) bool {
	switch {
	case h.opts.AllowCloseCaller || h.opts.CallerPane == "":
		return false
	case h.callerTerminal != "":
		return p.TerminalID == h.callerTerminal
	}
	return p.PaneID == h.opts.CallerPane
}
