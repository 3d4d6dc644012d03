package protocol

var paneMethods = []Method{
	{Name: "pane.split", Since: "0.2.0", Params: func() Params { return &PaneSplitParams{} }, Result: "pane_info", Summary: "Split a pane right or down, starting a new shell", Target: TargetFocusedPane, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.list", Since: "0.2.0", Pipeline: true, CLI: "pane list", Params: func() Params { return &PaneListParams{} }, Result: "pane_list", Summary: "List panes, optionally of one workspace", Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.get", Since: "0.2.0", Pipeline: true, CLI: "pane get", Params: func() Params { return &PaneTarget{} }, Result: "pane_info", Summary: "Describe one pane", Target: TargetPane, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.current", Access: AccessRead, Since: "0.7.0", Params: func() Params { return &PaneCurrentParams{} }, Result: "pane_current", Summary: "The caller's pane, else the focused pane", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.focus", Since: "0.7.2", Params: func() Params { return &PaneTarget{} }, Result: "pane_info", Summary: "Focus a pane (and its tab and workspace)", Target: TargetPane, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.rename", Since: "0.5.8", Params: func() Params { return &PaneRenameParams{} }, Result: "pane_info", Summary: "Set or clear a pane's label", Target: TargetPane, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "pane.close", Since: "0.2.0", CLI: "pane close", Params: func() Params { return &PaneTarget{} }, Result: "ok", Summary: "Close a pane and stop its process", Target: TargetPane, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.clear", Since: "0.9.2", Params: func() Params { return &PaneTarget{} }, Result: "ok", Summary: "Clear a pane's screen and scrollback (its program is not told)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.send_text", Since: "0.2.0", CLI: "pane send-text", CLIHelp: ": the remaining arguments joined by spaces, with no\nEnter. Prints nothing on success.", CLIExample: "  herdr pane send-text w1:p2 'ls -la'", Params: func() Params { return &PaneSendTextParams{} }, Result: "ok", Summary: "Write raw text to a pane", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserTyping},
	{Name: "pane.send_keys", Since: "0.2.0", CLI: "pane send-keys <pane> <key>...", CLIHelp: ", in order, e.g. Enter, ctrl+c, alt+x, Up,\nF5. Prints nothing on success.", CLIExample: "  herdr pane send-keys w1:p2 ctrl+c\n  herdr pane send-keys w1:p2 Up Enter", Params: func() Params { return &PaneSendKeysParams{} }, Result: "ok", Summary: "Send key combos to a pane", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserTyping},
	{Name: "pane.send_input", Since: "0.4.4", Params: func() Params { return &PaneSendInputParams{} }, Result: "ok", Summary: "Send text (pasted when the program asks) then keys", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserTyping},
	{Name: "pane.read", Since: "0.2.0", Pipeline: true, Params: func() Params { return &PaneReadParams{} }, Result: "pane_read", Summary: "Read a pane's screen or recent output", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.wait_for_output", Access: AccessRead, Since: "0.2.0", Params: func() Params { return &PaneWaitForOutputParams{} }, Result: "output_matched", Summary: "Wait until a pane shows matching output", Target: TargetPane, Owner: OwnerPane, Shape: ShapeWait},
	{Name: "pane.process_info", Since: "0.7.0", Pipeline: true, CLI: "pane process-info", CLIHelp: ` of <pane>, --pane, the calling pane
with --current, else the server's focused pane.`, Params: func() Params { return &PaneProcessInfoParams{} }, Result: "pane_process_info", Summary: "The pane's shell and foreground processes", Target: TargetFocusedPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "pane.edit_scrollback", Since: "0.9.0", CLI: "pane edit-scrollback", Params: func() Params { return &PaneEditScrollbackParams{} }, Result: "ok", Summary: "Open a pane's whole scrollback in $VISUAL or $EDITOR, in a zoomed pane of its own that closes with the editor", Target: TargetPane, Owner: OwnerClients, Shape: ShapeAnswer},
}

// Read sources and formats.
const (
	SourceVisible         = "visible"
	SourceRecent          = "recent"
	SourceRecentUnwrapped = "recent_unwrapped"
	SourceDetection       = "detection"
	FormatText            = "text"
	FormatANSI            = "ansi"
)

// PaneReadMaxBytes bounds the text of one read (pane.read, agent.read,
// what pane.wait_for_output reads): past it the oldest lines are left out
// and the result says truncated, as when more lines exist than asked for.
// 4 MiB holds 1000 plain lines of the widest terminal; a colourful ANSI
// read of a wide pane is what it stops.
const PaneReadMaxBytes = 4 << 20

var readSources = []string{SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection}

// PaneTarget names one pane.
type PaneTarget struct {
	PaneID string `json:"pane_id" cli:"<pane>"`
}

// Validate implements Params.
func (p *PaneTarget) Validate() error { return required("pane_id", p.PaneID) }

// PaneSplitParams are the params of pane.split.
type PaneSplitParams struct {
	Direction    string            `json:"direction"`
	TargetPaneID *string           `json:"target_pane_id,omitempty"`
	WorkspaceID  *string           `json:"workspace_id,omitempty"`
	Ratio        *float64          `json:"ratio,omitempty"`
	Cwd          *string           `json:"cwd,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	Focus        bool              `json:"focus,omitempty"`
	RightClick   string            `json:"right_click,omitempty"`
}

// Validate implements Params.
func (p *PaneSplitParams) Validate() error {
	if err := required("direction", p.Direction); err != nil {
		return err
	}
	if err := oneOf("direction", p.Direction, "right", "down"); err != nil {
		return err
	}
	if p.RightClick != "" {
		if err := oneOf("right_click", p.RightClick, "herdr", "pane"); err != nil {
			return err
		}
	}
	if p.Ratio != nil && (*p.Ratio <= 0 || *p.Ratio >= 1) {
		return Errorf(CodeInvalidRatio, "ratio must be between 0 and 1, got %v", *p.Ratio)
	}
	return validEnv(p.Env)
}

// PaneListParams are the params of pane.list.
type PaneListParams struct {
	WorkspaceID *string `json:"workspace_id,omitempty" cli:"--workspace" help:"only the panes of this workspace"`
}

// Validate implements Params.
func (p *PaneListParams) Validate() error { return nil }

// PaneCurrentParams are the params of pane.current.
type PaneCurrentParams struct {
	CallerPaneID *string `json:"caller_pane_id,omitempty"`
}

// Validate implements Params.
func (p *PaneCurrentParams) Validate() error { return nil }

// PaneRenameParams are the params of pane.rename; an absent or empty label clears it.
type PaneRenameParams struct {
	PaneID string  `json:"pane_id"`
	Label  *string `json:"label,omitempty"`
}

// Validate implements Params.
func (p *PaneRenameParams) Validate() error { return required("pane_id", p.PaneID) }

// PaneSendTextParams are the params of pane.send_text.
type PaneSendTextParams struct {
	PaneID string `json:"pane_id" cli:"<pane>"`
	Text   string `json:"text" cli:"<text...>"`
}

// Validate implements Params.
func (p *PaneSendTextParams) Validate() error { return required("pane_id", p.PaneID) }

// PaneSendKeysParams are the params of pane.send_keys.
type PaneSendKeysParams struct {
	PaneID string   `json:"pane_id" cli:"<pane>"`
	Keys   []string `json:"keys" cli:"<key...>"`
}

// Validate implements Params: every key must parse before any is sent.
func (p *PaneSendKeysParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if p.Keys == nil {
		return ParamError("keys", "missing required field")
	}
	return validateKeys(p.Keys)
}

// PaneSendInputParams are the params of pane.send_input.
type PaneSendInputParams struct {
	PaneID string   `json:"pane_id"`
	Text   string   `json:"text,omitempty"`
	Keys   []string `json:"keys,omitempty"`
}

// Validate implements Params.
func (p *PaneSendInputParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	return validateKeys(p.Keys)
}

// PaneReadParams are the params of pane.read.
type PaneReadParams struct {
	PaneID    string  `json:"pane_id"`
	Source    string  `json:"source"`
	Format    string  `json:"format,omitempty"`
	Lines     *uint32 `json:"lines,omitempty"`
	StripANSI *bool   `json:"strip_ansi,omitempty"`
}

// Validate implements Params.
func (p *PaneReadParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	return validateRead(p.Source, p.Format)
}

func validateRead(source, format string) error {
	if err := required("source", source); err != nil {
		return err
	}
	if err := oneOf("source", source, readSources...); err != nil {
		return err
	}
	if format != "" {
		return oneOf("format", format, FormatText, FormatANSI)
	}
	return nil
}

// OutputMatch is a substring or regex to look for in pane output.
type OutputMatch struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// PaneWaitForOutputParams are the params of pane.wait_for_output.
type PaneWaitForOutputParams struct {
	PaneID    string      `json:"pane_id"`
	Source    string      `json:"source"`
	Match     OutputMatch `json:"match"`
	Lines     *uint32     `json:"lines,omitempty"`
	StripANSI *bool       `json:"strip_ansi,omitempty"`
	TimeoutMS *uint64     `json:"timeout_ms,omitempty"`
}

// Validate implements Params.
func (p *PaneWaitForOutputParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := validateRead(p.Source, ""); err != nil {
		return err
	}
	if err := required("match.type", p.Match.Type); err != nil {
		return err
	}
	return oneOf("match.type", p.Match.Type, "substring", "regex")
}

// PaneProcessInfoParams are the params of pane.process_info.
type PaneProcessInfoParams struct {
	PaneID *string `json:"pane_id,omitempty" cli:"[<pane>|--pane|--current]"`
}

// Validate implements Params.
func (p *PaneProcessInfoParams) Validate() error { return nil }

// TargetID implements Targeted.
func (p *PaneTarget) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneRenameParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneSendTextParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneSendKeysParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneSendInputParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneReadParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneWaitForOutputParams) TargetID() string { return p.PaneID }

// TargetID implements Targeted.
func (p *PaneProcessInfoParams) TargetID() string {
	if p.PaneID == nil {
		return ""
	}
	return *p.PaneID
}

// TargetID implements Targeted: pane.split's target is target_pane_id,
// else the focused pane of workspace_id, else the focused pane.
func (p *PaneSplitParams) TargetID() string {
	if p.TargetPaneID == nil {
		return ""
	}
	return *p.TargetPaneID
}

// InWorkspaceID implements InWorkspace.
func (p *PaneSplitParams) InWorkspaceID() string {
	if p.WorkspaceID == nil {
		return ""
	}
	return *p.WorkspaceID
}
