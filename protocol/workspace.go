package protocol

var workspaceMethods = []Method{
	{Name: "workspace.create", Since: "0.2.0", Params: func() Params { return &WorkspaceCreateParams{} }, Result: "workspace_created", Summary: "Create a workspace with one tab and one pane", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "workspace.list", Since: "0.2.0", Pipeline: true, CLI: "workspace list", Params: empty, Result: "workspace_list", Summary: "List workspaces in order", Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "workspace.get", Since: "0.2.0", Pipeline: true, CLI: "workspace get", Params: func() Params { return &WorkspaceTarget{} }, Result: "workspace_info", Summary: "Describe one workspace", Target: TargetWorkspace, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "workspace.focus", Since: "0.2.0", CLI: "workspace focus", Params: func() Params { return &WorkspaceTarget{} }, Result: "workspace_info", Summary: "Focus a workspace", Target: TargetWorkspace, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "workspace.rename", Since: "0.2.0", CLI: "workspace rename", CLIHelp: "; the label is the remaining arguments joined by spaces.", CLIExample: "  herdr workspace rename w1 api server", Params: func() Params { return &WorkspaceRenameParams{} }, Result: "workspace_info", Summary: "Rename a workspace", Target: TargetWorkspace, Owner: OwnerWorkspace, Shape: ShapeAnswer},
	{Name: "workspace.move", Since: "0.7.2", CLI: "workspace move <workspace> --index N", CLIHelp: `: --index is its 0-based position once moved
(past the end means last). Prints the workspace list in its new order.`, CLIExample: "  herdr workspace move w3 --index 0", Params: func() Params { return &WorkspaceMoveParams{} }, Result: "workspace_list", Summary: "Move a workspace to a position", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "workspace.move_block", Since: "0.8.0", CLI: "workspace move-block <workspace>... [--before WORKSPACE]", CLIHelp: ` (or to the end without --before), in the
order given, in one step: nothing moves when any id is unknown, listed twice,
or the anchor is part of the block. Prints the workspace list in its new order.`, CLIExample: "  herdr workspace move-block w4 w2 --before w1", Params: func() Params { return &WorkspaceMoveBlockParams{} }, Result: "workspace_list", Summary: "Move several workspaces, in order, before another", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "workspace.close", Since: "0.2.0", CLI: "workspace close", CLIHelp: `. A repository's workspace whose worktree
workspaces are open closes only with --group, and then with all of them;
--group on a worktree workspace closes its whole group too.`, Params: func() Params { return &WorkspaceCloseParams{} }, Result: "ok", Summary: "Close a workspace and all its panes", Target: TargetWorkspace, Owner: OwnerSession, Shape: ShapeAnswer},
	WorkspaceGitStatusMethod,
	{Name: "workspace.count", Extension: true, Pipeline: true, CLI: "workspace count", Params: empty, Answer: WorkspaceCount{}, Summary: "Count the workspaces (extension)", Owner: OwnerSession, Shape: ShapeAnswer},
}

// WorkspaceCount answers workspace.count.
type WorkspaceCount struct {
	Count int `json:"count"`
}

// ResultType implements Result.
func (WorkspaceCount) ResultType() string { return "workspace_count" }

// WorkspaceCreateParams are the params of workspace.create.
// SourceWorkspaceID (protocol 22) names the workspace whose focused pane
// gives the folder when cwd is not given; without it, the focused
// workspace's.
type WorkspaceCreateParams struct {
	Cwd               *string           `json:"cwd,omitempty"`
	Env               map[string]string `json:"env,omitempty"`
	Focus             bool              `json:"focus,omitempty"`
	Label             *string           `json:"label,omitempty"`
	SourceWorkspaceID *string           `json:"source_workspace_id,omitempty"`
}

// Validate implements Params.
func (p *WorkspaceCreateParams) Validate() error {
	if p.SourceWorkspaceID != nil && *p.SourceWorkspaceID == "" {
		return ParamError("source_workspace_id", "must not be empty")
	}
	return validEnv(p.Env)
}

// WorkspaceTarget names one workspace.
type WorkspaceTarget struct {
	WorkspaceID string `json:"workspace_id" cli:"<workspace>"`
}

// Validate implements Params.
func (p *WorkspaceTarget) Validate() error { return required("workspace_id", p.WorkspaceID) }

// WorkspaceCloseParams are the params of workspace.close. CloseGroup
// allows closing a main checkout's workspace with its worktrees' ones.
type WorkspaceCloseParams struct {
	WorkspaceID string `json:"workspace_id" cli:"<workspace>"`
	CloseGroup  bool   `json:"close_group,omitempty" cli:"--group" help:"close the workspace's worktree group with it (close_group)"`
}

// Validate implements Params.
func (p *WorkspaceCloseParams) Validate() error { return required("workspace_id", p.WorkspaceID) }

// TargetID implements Targeted.
func (p *WorkspaceCloseParams) TargetID() string { return p.WorkspaceID }

// WorkspaceRenameParams are the params of workspace.rename.
type WorkspaceRenameParams struct {
	WorkspaceID string `json:"workspace_id" cli:"<workspace>"`
	Label       string `json:"label" cli:"<label...>"`
}

// Validate implements Params.
func (p *WorkspaceRenameParams) Validate() error { return required("workspace_id", p.WorkspaceID) }

// WorkspaceMoveParams are the params of workspace.move.
type WorkspaceMoveParams struct {
	WorkspaceID string `json:"workspace_id" cli:"<workspace>"`
	InsertIndex *int   `json:"insert_index" cli:"--index,required,min=0" help:"0-based position to move the workspace to (required)"`
}

// Validate implements Params.
func (p *WorkspaceMoveParams) Validate() error {
	if err := required("workspace_id", p.WorkspaceID); err != nil {
		return err
	}
	if p.InsertIndex == nil || *p.InsertIndex < 0 {
		return ParamError("insert_index", "must be a non-negative integer")
	}
	return nil
}

// WorkspaceMoveBlockParams are the params of workspace.move_block.
type WorkspaceMoveBlockParams struct {
	WorkspaceIDs      []string `json:"workspace_ids" cli:"<workspace...>"`
	BeforeWorkspaceID *string  `json:"before_workspace_id,omitempty" cli:"--before" help:"put the block in front of this workspace (default: at the end)"`
}

// Validate implements Params.
func (p *WorkspaceMoveBlockParams) Validate() error {
	if len(p.WorkspaceIDs) == 0 {
		return ParamError("workspace_ids", "must name at least one workspace")
	}
	seen := map[string]bool{}
	for _, id := range p.WorkspaceIDs {
		if seen[id] {
			return ParamError("workspace_ids", "%s is listed twice", id)
		}
		seen[id] = true
	}
	if p.BeforeWorkspaceID != nil && seen[*p.BeforeWorkspaceID] {
		return ParamError("before_workspace_id", "the anchor %s is part of the block", *p.BeforeWorkspaceID)
	}
	return nil
}

// TargetID implements Targeted.
func (p *WorkspaceTarget) TargetID() string { return p.WorkspaceID }

// TargetID implements Targeted.
func (p *WorkspaceRenameParams) TargetID() string { return p.WorkspaceID }

// TargetID implements Targeted.
func (p *WorkspaceReportMetadataParams) TargetID() string { return p.WorkspaceID }
