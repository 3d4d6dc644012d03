package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

type startAgentIn struct {
	Name      string   `json:"name" jsonschema:"the agent's name, [a-z][a-z0-9_-]{0,31}: prompt_agent and wait_agent take it"`
	Kind      string   `json:"kind" jsonschema:"which agent program to run"`
	PaneID    string   `json:"pane_id,omitempty" jsonschema:"the pane to split (default: the caller's pane, else the focused one)"`
	Direction string   `json:"direction,omitempty" jsonschema:"where the new pane goes"`
	Cwd       string   `json:"cwd,omitempty" jsonschema:"the new pane's folder (absolute); default: the split pane's"`
	Args      []string `json:"args,omitempty" jsonschema:"arguments for the agent program"`
	TimeoutMS uint64   `json:"timeout_ms,omitempty" jsonschema:"how long to wait for the agent to be ready (3001 to 300000, default 30000)"`
}

type startedOut struct {
	Agent protocol.AgentInfo `json:"agent"`
	Argv  []string           `json:"argv"`
}

func (h *herdr) startAgent(ctx context.Context, req *sdk.CallToolRequest, in startAgentIn) (startedOut, error) {
	if err := h.checkStart(in.Name, in.Kind, in.Args, &in.TimeoutMS); err != nil {
		return startedOut{}, err
	}
	split := protocol.PaneSplitParams{Direction: in.Direction}
	if split.Direction == "" {
		split.Direction = "right"
	}
	switch {
	case in.PaneID != "":
		split.TargetPaneID = &in.PaneID
	case h.opts.CallerPane != "":
		split.TargetPaneID = &h.opts.CallerPane
	}
	if in.Cwd != "" {
		split.Cwd = &in.Cwd
	}
	var pane protocol.PaneInfoResult
	if err := h.call(ctx, "pane.split", split, &pane); err != nil {
		return startedOut{}, err
	}
	return h.launch(ctx, req, pane.Pane, in.Name, in.Kind, in.Args, in.TimeoutMS)
}

type startInWorktreeIn struct {
	Name        string   `json:"name" jsonschema:"the agent's name, [a-z][a-z0-9_-]{0,31}"`
	Kind        string   `json:"kind" jsonschema:"which agent program to run"`
	WorkspaceID string   `json:"workspace_id,omitempty" jsonschema:"the workspace whose repository gets the worktree (default: the active one)"`
	Cwd         string   `json:"cwd,omitempty" jsonschema:"or a folder of the repository (absolute)"`
	Branch      string   `json:"branch,omitempty" jsonschema:"the new branch (default: worktree/<name>)"`
	Base        string   `json:"base,omitempty" jsonschema:"what the branch starts from (default: HEAD)"`
	Label       string   `json:"label,omitempty" jsonschema:"the new workspace's label"`
	Args        []string `json:"args,omitempty" jsonschema:"arguments for the agent program"`
	TimeoutMS   uint64   `json:"timeout_ms,omitempty" jsonschema:"how long to wait for the agent to be ready (3001 to 300000, default 30000)"`
}

type startedInWorktreeOut struct {
	Agent     protocol.AgentInfo     `json:"agent"`
	Argv      []string               `json:"argv"`
	Workspace protocol.WorkspaceInfo `json:"workspace"`
	Worktree  protocol.WorktreeInfo  `json:"worktree"`
}

func (h *herdr) startAgentInWorktree(ctx context.Context, req *sdk.CallToolRequest, in startInWorktreeIn) (startedInWorktreeOut, error) {
	if err := h.checkStart(in.Name, in.Kind, in.Args, &in.TimeoutMS); err != nil {
		return startedInWorktreeOut{}, err
	}
	p := protocol.WorktreeCreateParams{}
	if in.WorkspaceID != "" {
		p.WorkspaceID = &in.WorkspaceID
	}
	if in.Cwd != "" {
		p.Cwd = &in.Cwd
	}
	if in.Branch == "" {
		in.Branch = "worktree/" + in.Name
	}
	p.Branch = &in.Branch
	if in.Base != "" {
		p.Base = &in.Base
	}
	if in.Label != "" {
		p.Label = &in.Label
	}
	var wt protocol.WorktreeCreated
	if err := h.call(ctx, "worktree.create", p, &wt); err != nil {
		return startedInWorktreeOut{}, err
	}
	started, err := h.launch(ctx, req, wt.RootPane, in.Name, in.Kind, in.Args, in.TimeoutMS)
	return startedInWorktreeOut{Agent: started.Agent, Argv: started.Argv, Workspace: wt.Workspace, Worktree: wt.Worktree}, err
}

// checkStart refuses what agent.start would, before a pane or worktree
// is made for nothing, and sets the default timeout.
func (h *herdr) checkStart(name, kind string, args []string, timeoutMS *uint64) error {
	if *timeoutMS == 0 {
		*timeoutMS = defaultStartMS
	}
	p := protocol.AgentStartParams{Name: name, Kind: kind, PaneID: "-", Args: args, TimeoutMS: timeoutMS}
	if err := p.Validate(); err != nil {
		return asToolError(err)
	}
	return nil
}

// launch starts the agent in a new pane's shell once the shell has drawn
// something (its prompt), then waits, as `herdr agent start` does, until
// the named agent runs there and is ready for input.
func (h *herdr) launch(ctx context.Context, req *sdk.CallToolRequest, pane protocol.PaneInfo, name, kind string, args []string, timeoutMS uint64) (startedOut, error) {
	if pane.Revision == 0 {
		seen := uint64(0)
		var first protocol.WaitMatched
		_ = h.call(ctx, "events.wait", protocol.EventsWaitParams{MatchEvent: &protocol.EventMatch{Event: "pane_output_changed", PaneID: &pane.PaneID, SeenRevision: &seen},
			TimeoutMS: protocol.Ptr(uint64(5000)), AllowExtensions: true}, &first) // a shell that prints nothing is typed into all the same
	}
	var started protocol.AgentStarted
	p := protocol.AgentStartParams{Name: name, Kind: kind, PaneID: pane.PaneID, Args: args, TimeoutMS: &timeoutMS}
	if err := h.call(ctx, "agent.start", p, &started); err != nil {
		return startedOut{}, err
	}
	out := startedOut{Agent: started.Agent, Argv: started.Argv}
	err := h.withProgress(ctx, req, timeoutMS, fmt.Sprintf("waiting for agent %s to be ready", name), func() error {
		deadline := time.Now().Add(time.Duration(timeoutMS) * time.Millisecond)
		for {
			var r protocol.AgentInfoResult
			if err := h.call(ctx, "agent.get", protocol.AgentTarget{Target: name}, &r); err != nil {
				return err
			}
			a := r.Agent
			switch {
			case a.TerminalID != started.Agent.TerminalID:
				return &toolError{"agent_name_not_found", fmt.Sprintf("agent %s now names another terminal", name)}
			case a.Agent != nil && *a.Agent != kind:
				return &toolError{"agent_kind_mismatch", fmt.Sprintf("pane runs %s, not %s", *a.Agent, kind)}
			case a.Name != nil && *a.Name == name && a.InteractiveReady:
				out.Agent = a
				return nil
			case time.Now().After(deadline):
				return &toolError{protocol.CodeTimeout, fmt.Sprintf("agent %s was not ready within %d ms", name, timeoutMS)}
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(readyPoll):
			}
		}
	})
	return out, err
}

// readyPoll is how often a started agent is looked at until it is ready.
const readyPoll = 100 * time.Millisecond

// withProgress runs wait, sending the client a progress notification at
// once and then every second while it runs, when the request asked for
// them (a progress token).
func (h *herdr) withProgress(ctx context.Context, req *sdk.CallToolRequest, timeoutMS uint64, what string, wait func() error) error {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return wait()
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: what,
				Progress: float64(time.Since(start).Milliseconds()), Total: float64(timeoutMS)})
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	err := wait()
	close(stop)
	<-finished
	return err
}

// decodeEvent reads the data of an events.wait answer's event line.
func decodeEvent(w protocol.WaitMatched, data any) error {
	var line struct {
		Data json.RawMessage `json:"data"`
	}
	if err := protocol.Unmarshal(w.Event, &line); err != nil {
		return err
	}
	return protocol.Unmarshal(line.Data, data)
}
