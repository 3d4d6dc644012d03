package protocol

var tabMethods = []Method{
	{Name: "tab.create", Since: "0.3.0", Params: func() Params { return &TabCreateParams{} }, Result: "tab_created", Summary: "Create a tab with one pane", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "tab.list", Since: "0.3.0", Pipeline: true, CLI: "tab list", Params: func() Params { return &TabListParams{} }, Result: "tab_list", Summary: "List tabs, optionally of one workspace", Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "tab.get", Since: "0.3.0", Pipeline: true, CLI: "tab get", Params: func() Params { return &TabTarget{} }, Result: "tab_info", Summary: "Describe one tab", Target: TargetTab, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "tab.focus", Since: "0.3.0", CLI: "tab focus", Params: func() Params { return &TabTarget{} }, Result: "tab_info", Summary: "Focus a tab", Target: TargetTab, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "tab.rename", Since: "0.3.0", CLI: "tab rename", CLIHelp: "; the label is the remaining arguments joined by spaces.", CLIExample: "  herdr tab rename w1:t2 build logs", Params: func() Params { return &TabRenameParams{} }, Result: "tab_info", Summary: "Rename a tab", Target: TargetTab, Owner: OwnerTab, Shape: ShapeAnswer},
	{Name: "tab.move", Since: "0.7.2", CLI: "tab move <tab> --index N", CLIHelp: `: --index is its 0-based position once moved (past
the end means last). Prints the workspace's tab list in its new order.`, CLIExample: "  herdr tab move w1:t3 --index 0", Params: func() Params { return &TabMoveParams{} }, Result: "tab_list", Summary: "Move a tab to a position in its workspace", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "tab.close", Since: "0.3.0", CLI: "tab close", Params: func() Params { return &TabTarget{} }, Result: "ok", Summary: "Close a tab and its panes", Target: TargetTab, Owner: OwnerSession, Shape: ShapeAnswer},
}

// TabCreateParams are the params of tab.create.
type TabCreateParams struct {
	WorkspaceID *string           `json:"workspace_id,omitempty"`
	Cwd         *string           `json:"cwd,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Focus       bool              `json:"focus,omitempty"`
	Label       *string           `json:"label,omitempty"`
}

// Validate implements Params.
func (p *TabCreateParams) Validate() error { return validEnv(p.Env) }

// TabListParams are the params of tab.list.
type TabListParams struct {
	WorkspaceID *string `json:"workspace_id,omitempty" cli:"--workspace" help:"only the tabs of this workspace"`
}

// Validate implements Params.
func (p *TabListParams) Validate() error { return nil }

// TabTarget names one tab.
type TabTarget struct {
	TabID string `json:"tab_id" cli:"<tab>"`
}

// Validate implements Params.
func (p *TabTarget) Validate() error { return required("tab_id", p.TabID) }

// TabRenameParams are the params of tab.rename.
type TabRenameParams struct {
	TabID string `json:"tab_id" cli:"<tab>"`
	Label string `json:"label" cli:"<label...>"`
}

// Validate implements Params.
func (p *TabRenameParams) Validate() error { return required("tab_id", p.TabID) }

// TabMoveParams are the params of tab.move.
type TabMoveParams struct {
	TabID       string `json:"tab_id" cli:"<tab>"`
	InsertIndex *int   `json:"insert_index" cli:"--index,required,min=0" help:"0-based position in the workspace to move the tab to (required)"`
}

// Validate implements Params.
func (p *TabMoveParams) Validate() error {
	if err := required("tab_id", p.TabID); err != nil {
		return err
	}
	if p.InsertIndex == nil || *p.InsertIndex < 0 {
		return ParamError("insert_index", "must be a non-negative integer")
	}
	return nil
}

// TargetID implements Targeted.
func (p *TabTarget) TargetID() string { return p.TabID }

// TargetID implements Targeted.
func (p *TabRenameParams) TargetID() string { return p.TabID }
