package protocol

var workspaceMethods = []Method{
	{Name: "workspace.create", Params: func() Params { return &WorkspaceCreateParams{} }, Result: "workspace_created", Summary: "Create a workspace with one tab and one pane"},
	{Name: "workspace.list", Params: empty, Result: "workspace_list", Summary: "List workspaces in order"},
	{Name: "workspace.get", Params: func() Params { return &WorkspaceTarget{} }, Result: "workspace_info", Summary: "Describe one workspace"},
	{Name: "workspace.focus", Params: func() Params { return &WorkspaceTarget{} }, Result: "workspace_info", Summary: "Focus a workspace"},
	{Name: "workspace.rename", Params: func() Params { return &WorkspaceRenameParams{} }, Result: "workspace_info", Summary: "Rename a workspace"},
	{Name: "workspace.close", Params: func() Params { return &WorkspaceTarget{} }, Result: "ok", Summary: "Close a workspace and all its panes"},
}

// WorkspaceCreateParams are the params of workspace.create.
type WorkspaceCreateParams struct {
	Cwd   *string           `json:"cwd,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	Focus bool              `json:"focus,omitempty"`
	Label *string           `json:"label,omitempty"`
}

// Validate implements Params.
func (p *WorkspaceCreateParams) Validate() error { return validEnv(p.Env) }

// WorkspaceTarget names one workspace.
type WorkspaceTarget struct {
	WorkspaceID string `json:"workspace_id"`
}

// Validate implements Params.
func (p *WorkspaceTarget) Validate() error { return required("workspace_id", p.WorkspaceID) }

// WorkspaceRenameParams are the params of workspace.rename.
type WorkspaceRenameParams struct {
	WorkspaceID string `json:"workspace_id"`
	Label       string `json:"label"`
}

// Validate implements Params.
func (p *WorkspaceRenameParams) Validate() error { return required("workspace_id", p.WorkspaceID) }
