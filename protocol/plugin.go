package protocol

// pluginMethods are followed by command.invoke in the table (areas): it
// runs key commands and plugin actions alike.
var pluginMethods = []Method{
	{Name: "plugin.link", Since: "0.7.0", Params: func() Params { return &PluginLinkParams{} }, Result: "plugin_linked", Summary: "Link a plugin from its herdr-plugin.toml", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.list", Since: "0.7.0", Pipeline: true, Params: func() Params { return &PluginListParams{} }, Result: "plugin_list", Summary: "List linked plugins", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.unlink", Since: "0.7.0", CLI: "plugin unlink", Params: func() Params { return &PluginIDParams{} }, Result: "plugin_unlinked", Summary: "Unlink a plugin", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.enable", Since: "0.7.0", CLI: "plugin enable", Params: func() Params { return &PluginIDParams{} }, Result: "plugin_enabled", Summary: "Enable a plugin", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.disable", Since: "0.7.0", CLI: "plugin disable", Params: func() Params { return &PluginIDParams{} }, Result: "plugin_disabled", Summary: "Disable a plugin", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.action.list", Access: AccessRead, Since: "0.7.0", CLI: "plugin action list [--plugin ID]", Params: func() Params { return &PluginListParams{} }, Result: "plugin_action_list", Summary: "List plugin actions", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.action.invoke", Since: "0.7.0", Params: func() Params { return &PluginActionInvokeParams{} }, Result: "plugin_action_invoked", Summary: "Run a plugin action", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.log.list", Access: AccessRead, Since: "0.7.0", CLI: "plugin log list [--plugin ID] [--limit N]", Params: func() Params { return &PluginLogListParams{} }, Result: "plugin_log_list", Summary: "List recent plugin command runs", Owner: OwnerPlugins, Shape: ShapeAnswer},
}

// Plugin error codes.
const (
	CodePluginDisabled       = "plugin_disabled"
	CodePluginActionNotFound = "plugin_action_not_found"
	CodeAmbiguousAction      = "ambiguous_plugin_action"
	CodePlatformUnsupported  = "platform_unsupported"
	CodePluginTooNew         = "plugin_requires_newer_herdr"
	CodePluginManifestRead   = "plugin_manifest_read_failed"
	CodePluginManifestParse  = "plugin_manifest_parse_failed"
	CodePluginCommandLimit   = "plugin_command_limit_reached"
	CodePluginRegistryLoad   = "plugin_registry_load_failed"
	CodePluginRegistrySave   = "plugin_registry_save_failed"
)

// PluginLinkParams are the params of plugin.link.
type PluginLinkParams struct {
	Path    string            `json:"path"`
	Enabled *bool             `json:"enabled,omitempty"`
	Source  *PluginSourceInfo `json:"source,omitempty"`
}

// Validate implements Params.
func (p *PluginLinkParams) Validate() error { return required("path", p.Path) }

// PluginListParams filter by plugin (plugin.list, plugin.action.list).
type PluginListParams struct {
	PluginID *string `json:"plugin_id,omitempty" cli:"--plugin,value=ID" help:"only plugin ID"`
}

// Validate implements Params.
func (*PluginListParams) Validate() error { return nil }

// PluginIDParams name one plugin.
type PluginIDParams struct {
	PluginID string `json:"plugin_id" cli:"<id>"`
}

// Validate implements Params.
func (p *PluginIDParams) Validate() error { return required("plugin_id", p.PluginID) }

// PluginActionInvokeParams are the params of plugin.action.invoke.
type PluginActionInvokeParams struct {
	ActionID string                   `json:"action_id"`
	PluginID *string                  `json:"plugin_id,omitempty"`
	Context  *PluginInvocationContext `json:"context,omitempty"`
}

// Validate implements Params.
func (p *PluginActionInvokeParams) Validate() error { return required("action_id", p.ActionID) }

// PluginLogListParams are the params of plugin.log.list.
type PluginLogListParams struct {
	PluginID *string `json:"plugin_id,omitempty" cli:"--plugin,value=ID" help:"only plugin ID"`
	Limit    *uint64 `json:"limit,omitempty" cli:"--limit,value=N" help:"at most N runs, newest first"`
}

// Validate implements Params.
func (*PluginLogListParams) Validate() error { return nil }

// PluginSourceInfo says where a plugin came from.
type PluginSourceInfo struct {
	Kind            string  `json:"kind"`
	Owner           *string `json:"owner,omitempty"`
	Repo            *string `json:"repo,omitempty"`
	Subdir          *string `json:"subdir,omitempty"`
	RequestedRef    *string `json:"requested_ref,omitempty"`
	ResolvedCommit  *string `json:"resolved_commit,omitempty"`
	ManagedPath     *string `json:"managed_path,omitempty"`
	InstalledUnixMS *uint64 `json:"installed_unix_ms,omitempty"`
}

// PluginInvocationContext is what a plugin command is told about where it
// was invoked; every field is optional.
type PluginInvocationContext struct {
	WorkspaceID       *string                `json:"workspace_id,omitempty"`
	WorkspaceLabel    *string                `json:"workspace_label,omitempty"`
	WorkspaceCwd      *string                `json:"workspace_cwd,omitempty"`
	Worktree          *WorkspaceWorktreeInfo `json:"worktree,omitempty"`
	TabID             *string                `json:"tab_id,omitempty"`
	TabLabel          *string                `json:"tab_label,omitempty"`
	FocusedPaneID     *string                `json:"focused_pane_id,omitempty"`
	FocusedPaneCwd    *string                `json:"focused_pane_cwd,omitempty"`
	FocusedPaneAgent  *string                `json:"focused_pane_agent,omitempty"`
	FocusedPaneStatus *AgentStatus           `json:"focused_pane_status,omitempty"`
	SelectedText      *string                `json:"selected_text,omitempty"`
	InvocationSource  *string                `json:"invocation_source,omitempty"`
	CorrelationID     *string                `json:"correlation_id,omitempty"`
	ClickedURL        *string                `json:"clicked_url,omitempty"`
	LinkHandlerID     *string                `json:"link_handler_id,omitempty"`
}

// PluginCommand is a manifest entry that runs a command (build, startup).
type PluginCommand struct {
	Command   []string `json:"command" toml:"command"`
	Platforms []string `json:"platforms,omitempty" toml:"platforms"`
}

// PluginManifestAction is an [[actions]] entry.
type PluginManifestAction struct {
	ID          string   `json:"id" toml:"id"`
	Title       string   `json:"title" toml:"title"`
	Description *string  `json:"description,omitempty" toml:"description"`
	Contexts    []string `json:"contexts,omitempty" toml:"contexts"`
	Platforms   []string `json:"platforms,omitempty" toml:"platforms"`
	Command     []string `json:"command" toml:"command"`
}

// PluginManifestEventHook is an [[events]] entry.
type PluginManifestEventHook struct {
	On        string   `json:"on" toml:"on"`
	Platforms []string `json:"platforms,omitempty" toml:"platforms"`
	Command   []string `json:"command" toml:"command"`
}

// PluginManifestPane is a [[panes]] entry.
type PluginManifestPane struct {
	ID          string   `json:"id" toml:"id"`
	Title       string   `json:"title" toml:"title"`
	Description *string  `json:"description,omitempty" toml:"description"`
	Placement   string   `json:"placement" toml:"placement"`
	Width       any      `json:"width,omitempty" toml:"width"`
	Height      any      `json:"height,omitempty" toml:"height"`
	Platforms   []string `json:"platforms,omitempty" toml:"platforms"`
	Command     []string `json:"command" toml:"command"`
}

// PluginManifestLinkHandler is a [[link_handlers]] entry.
type PluginManifestLinkHandler struct {
	ID        string   `json:"id" toml:"id"`
	Title     string   `json:"title" toml:"title"`
	Pattern   string   `json:"pattern" toml:"pattern"`
	Action    string   `json:"action" toml:"action"`
	Platforms []string `json:"platforms,omitempty" toml:"platforms"`
}

// InstalledPluginInfo is one linked plugin, as plugins.json and the API
// show it.
type InstalledPluginInfo struct {
	PluginID        string                      `json:"plugin_id"`
	Name            string                      `json:"name"`
	Version         string                      `json:"version"`
	MinHerdrVersion string                      `json:"min_herdr_version"`
	Description     *string                     `json:"description,omitempty"`
	ManifestPath    string                      `json:"manifest_path"`
	PluginRoot      string                      `json:"plugin_root"`
	Enabled         bool                        `json:"enabled"`
	Platforms       []string                    `json:"platforms,omitempty"`
	Build           []PluginCommand             `json:"build"`
	Startup         []PluginCommand             `json:"startup"`
	Actions         []PluginManifestAction      `json:"actions"`
	Events          []PluginManifestEventHook   `json:"events"`
	Panes           []PluginManifestPane        `json:"panes"`
	LinkHandlers    []PluginManifestLinkHandler `json:"link_handlers"`
	Source          *PluginSourceInfo           `json:"source,omitempty"`
	Warnings        []string                    `json:"warnings"`
}

// PluginActionInfo is an action with its plugin and qualified id.
type PluginActionInfo struct {
	PluginID    string   `json:"plugin_id"`
	ActionID    string   `json:"action_id"`
	Title       string   `json:"title"`
	Description *string  `json:"description,omitempty"`
	Contexts    []string `json:"contexts,omitempty"`
	Platforms   []string `json:"platforms,omitempty"`
	Command     []string `json:"command"`
}

// PluginCommandLogInfo is one run of a plugin command.
type PluginCommandLogInfo struct {
	LogID          string   `json:"log_id"`
	PluginID       string   `json:"plugin_id"`
	ActionID       *string  `json:"action_id,omitempty"`
	Event          *string  `json:"event,omitempty"`
	Command        []string `json:"command"`
	Status         string   `json:"status"` // running | succeeded | failed
	StartedUnixMS  uint64   `json:"started_unix_ms"`
	FinishedUnixMS *uint64  `json:"finished_unix_ms,omitempty"`
	ExitCode       *int32   `json:"exit_code,omitempty"`
	Stdout         *string  `json:"stdout,omitempty"`
	Stderr         *string  `json:"stderr,omitempty"`
	Error          *string  `json:"error,omitempty"`
}

// Plugin results.
type (
	PluginLinked struct {
		Plugin InstalledPluginInfo `json:"plugin"`
	}
	PluginEnabled struct {
		Plugin InstalledPluginInfo `json:"plugin"`
	}
	PluginDisabled struct {
		Plugin InstalledPluginInfo `json:"plugin"`
	}
	PluginList struct {
		Plugins []InstalledPluginInfo `json:"plugins"`
	}
	PluginActionList struct {
		Actions []PluginActionInfo `json:"actions"`
	}
	PluginLogList struct {
		Logs []PluginCommandLogInfo `json:"logs"`
	}
	PluginUnlinked struct {
		PluginID string `json:"plugin_id"`
		Removed  bool   `json:"removed"`
	}
	PluginActionInvoked struct {
		Action  PluginActionInfo        `json:"action"`
		Context PluginInvocationContext `json:"context"`
		Log     PluginCommandLogInfo    `json:"log"`
	}
)

func (PluginLinked) ResultType() string        { return "plugin_linked" }
func (PluginEnabled) ResultType() string       { return "plugin_enabled" }
func (PluginDisabled) ResultType() string      { return "plugin_disabled" }
func (PluginList) ResultType() string          { return "plugin_list" }
func (PluginActionList) ResultType() string    { return "plugin_action_list" }
func (PluginLogList) ResultType() string       { return "plugin_log_list" }
func (PluginUnlinked) ResultType() string      { return "plugin_unlinked" }
func (PluginActionInvoked) ResultType() string { return "plugin_action_invoked" }

// pluginPaneMethods are followed by the popup methods in the table
// (areas): a popup is a plugin pane placement.
var pluginPaneMethods = []Method{
	{Name: "plugin.pane.open", Since: "0.7.0", Params: func() Params { return &PluginPaneOpenParams{} }, Result: "*", Summary: "Open a plugin's pane entrypoint as an overlay, popup, split, tab or zoomed pane", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.pane.focus", Since: "0.7.0", CLI: "plugin pane focus", Params: func() Params { return &PluginPaneTarget{} }, Result: "plugin_pane_focused", Summary: "Focus a plugin pane", Owner: OwnerPlugins, Shape: ShapeAnswer},
	{Name: "plugin.pane.close", Since: "0.7.0", CLI: "plugin pane close", Params: func() Params { return &PluginPaneTarget{} }, Result: "plugin_pane_closed", Summary: "Close a plugin pane", Owner: OwnerPlugins, Shape: ShapeAnswer},
}

// CodePluginPaneNotFound and CodePluginPaneOpenFailed are plugin pane errors.
const (
	CodePluginPaneNotFound   = "plugin_pane_not_found"
	CodePluginPaneOpenFailed = "plugin_pane_open_failed"
)

// PluginPaneOpenParams are the params of plugin.pane.open.
type PluginPaneOpenParams struct {
	PluginID     string            `json:"plugin_id"`
	Entrypoint   string            `json:"entrypoint"`
	Placement    *string           `json:"placement,omitempty"`
	WorkspaceID  *string           `json:"workspace_id,omitempty"`
	TargetPaneID *string           `json:"target_pane_id,omitempty"`
	Direction    *string           `json:"direction,omitempty"`
	Cwd          *string           `json:"cwd,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	Focus        bool              `json:"focus,omitempty"`
	Width        any               `json:"width,omitempty"`
	Height       any               `json:"height,omitempty"`
}

// Validate implements Params.
func (p *PluginPaneOpenParams) Validate() error {
	for _, err := range []error{required("plugin_id", p.PluginID), required("entrypoint", p.Entrypoint), absolute("cwd", p.Cwd), validEnv(p.Env)} {
		if err != nil {
			return err
		}
	}
	if p.Placement != nil {
		if err := oneOf("placement", *p.Placement, "overlay", "popup", "split", "tab", "zoomed"); err != nil {
			return err
		}
	}
	if p.Direction != nil {
		if err := oneOf("direction", *p.Direction, "right", "down"); err != nil {
			return err
		}
	}
	for field, v := range map[string]any{"width": p.Width, "height": p.Height} {
		if _, err := ParsePopupSize(v); err != nil {
			return ParamError(field, "%s", AsError(err).Message)
		}
	}
	return nil
}

// PluginPaneTarget names a plugin pane (plugin.pane.focus, plugin.pane.close).
type PluginPaneTarget struct {
	PaneID string `json:"pane_id" cli:"<pane_id>"`
}

// Validate implements Params.
func (p *PluginPaneTarget) Validate() error { return required("pane_id", p.PaneID) }

// PluginPaneInfo is a pane running a plugin entrypoint.
type PluginPaneInfo struct {
	PluginID   string   `json:"plugin_id"`
	Entrypoint string   `json:"entrypoint"`
	Pane       PaneInfo `json:"pane"`
}

// Plugin pane results.
type (
	PluginPaneOpened struct {
		PluginPane PluginPaneInfo `json:"plugin_pane"`
	}
	PluginPaneFocused struct {
		PluginPane PluginPaneInfo `json:"plugin_pane"`
	}
	PluginPaneClosed struct {
		PaneID string `json:"pane_id"`
	}
)

func (PluginPaneOpened) ResultType() string  { return "plugin_pane_opened" }
func (PluginPaneFocused) ResultType() string { return "plugin_pane_focused" }
func (PluginPaneClosed) ResultType() string  { return "plugin_pane_closed" }
