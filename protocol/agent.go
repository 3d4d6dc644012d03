package protocol

import (
	"strings"
)

var agentMethods = []Method{
	{Name: "agent.list", Since: "0.5.10", Pipeline: true, Params: fleetParams, Result: "agent_list", Summary: "List panes that run a recognised agent", Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.get", Since: "0.5.10", Pipeline: true, CLI: "agent get", CLIHelp: ".\n\n" + AgentTargetHelp, Params: func() Params { return &AgentTarget{} }, Result: "agent_info", Summary: "Describe one agent, by pane id or name", Target: TargetAgent, Owner: OwnerSession, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.read", Since: "0.5.10", Pipeline: true, Params: func() Params { return &AgentReadParams{} }, Result: "pane_read", Summary: "Read an agent's screen or recent output", Target: TargetAgent, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "agent.explain", Access: AccessRead, Since: "0.6.9", Params: func() Params { return &AgentTarget{} }, Result: "agent_explain", Summary: "Why an agent has its state: matched rule and evidence", Target: TargetAgent, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "agent.send_keys", Since: "0.7.5", CLI: "agent send-keys <target> <key>...", CLIHelp: " (Enter, C-c, Up, …); prints the response line.\n\n" + AgentTargetHelp, Params: func() Params { return &AgentSendKeysParams{} }, Result: "ok", Summary: "Send key combos to an agent", Target: TargetAgent, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "agent.rename", Since: "0.5.10", Params: func() Params { return &AgentRenameParams{} }, Result: "agent_info", Summary: "Name an agent (or clear its name)", Target: TargetAgent, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "agent.focus", Since: "0.5.10", CLI: "agent focus", CLIHelp: ".\n\n" + AgentTargetHelp, Params: func() Params { return &AgentTarget{} }, Result: "agent_info", Summary: "Focus an agent's pane, tab and workspace", Target: TargetAgent, Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "agent.start", Since: "0.5.10", Params: func() Params { return &AgentStartParams{} }, Result: "agent_started", Summary: "Start a named agent in an idle shell pane", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "agent.prompt", Access: AccessWrite, Since: "0.7.5", Params: func() Params { return &AgentPromptParams{} }, Result: "agent_prompted", Summary: "Type a prompt into an agent, optionally waiting for it to settle", Target: TargetAgent, Owner: OwnerAgents, Shape: ShapeWait},
	{Name: "agent.wait", Access: AccessRead, Since: "0.7.5", Params: func() Params { return &AgentWaitParams{} }, Result: "agent_info", Summary: "Wait until an agent reaches one of some statuses", Target: TargetAgent, Owner: OwnerAgents, Shape: ShapeWait},
	{Name: "agent.view.set", Since: "0.7.5", Params: func() Params { return &AgentViewSetParams{} }, Result: "agent_view", Summary: "Set the filtered, sorted agent view", Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "agent.view.clear", Since: "0.7.5", Params: func() Params { return &AgentViewClearParams{} }, Result: "agent_view", Summary: "Clear the agent view", Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "agent.view.get", Access: AccessRead, Extension: true, Params: empty, Result: "agent_view_list", Summary: "The active agent view and the panes of the agents it shows, in its order (extension)", Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "server.agent_manifests", Access: AccessRead, Since: "0.6.9", Params: empty, Result: "agent_manifest_status", Summary: "The agent detection manifests in use", Owner: OwnerSession, Shape: ShapeAnswer},
	{Name: "server.reload_agent_manifests", Since: "0.6.9", CLI: "server reload-agent-manifests", Params: empty, Result: "agent_manifest_reload", Summary: "Reload agent manifests, local overrides included", Owner: OwnerReloads, Shape: ShapeAnswer},
}

// Agent error codes.
const (
	CodeAgentNotFound        = "agent_not_found"
	CodeInvalidAgent         = "invalid_agent"
	CodeInvalidAgentName     = "invalid_agent_name"
	CodeInvalidAgentArgument = "invalid_agent_argument"
	CodeInvalidAgentTimeout  = "invalid_agent_timeout"
	CodeAgentNameTaken       = "agent_name_taken"
	CodeAgentNotReady        = "agent_not_ready"
	CodeAgentNotIdle         = "agent_not_idle"
	CodeAgentBlocked         = "agent_blocked"
	CodeAgentPromptStalled   = "agent_prompt_stalled"
	CodeAgentNotRunning      = "agent_not_running"
	CodeEmptyAgentPrompt     = "empty_agent_prompt"
	CodeUnsupportedAgentKind = "unsupported_agent_kind"
	CodeInvalidAgentView     = "invalid_agent_view"
	CodeAgentPaneBusy        = "agent_pane_busy"
	CodeAgentSendKeysFailed  = "agent_send_keys_failed"
	CodeAgentPromptFailed    = "agent_prompt_failed"
	CodeAgentStartInput      = "agent_start_input_failed"
	// CodeAgentStartFailed is the CLI's for an agent start that failed
	// (Herdr's code); the server answers agent_not_found, saying why
	// (AgentDidNotStart).
	CodeAgentStartFailed    = "agent_start_failed"
	CodeAgentExplainUnavail = "agent_explain_unavailable"
	CodePluginNotFound      = "plugin_not_found"
)

// AgentNamePattern is what agent names look like. It and the package's
// other patterns are compiled on first use: every process of the binary
// (a one-shot CLI call too) would otherwise pay for them before main.
var AgentNamePattern = LazyRegexp(`^[a-z][a-z0-9_-]{0,31}$`)

// AgentKinds are the agents agent.start can launch.
var AgentKinds = []string{"pi", "claude", "codex", "gemini", "cursor", "devin", "agy", "cline", "omp", "mastracode",
	"opencode", "copilot", "kimi", "kiro", "droid", "amp", "grok", "hermes", "kilo", "qodercli", "maki", "qwen"}

// AgentExecutable is the program agent.start runs for a kind.
func AgentExecutable(kind string) string {
	switch kind {
	case "cursor":
		return "cursor-agent"
	case "kiro":
		return "kiro-cli"
	}
	return kind
}

// AgentTargetHelp is what the CLI's agent verbs say of their <target>.
const AgentTargetHelp = `An agent target is the public id of the pane hosting it (w1:p2, tried
first) or the agent's unique name.`

// AgentTarget names an agent: the pane id hosting it, or its name.
type AgentTarget struct {
	Target string `json:"target" cli:"<target>"`
}

// Validate implements Params.
func (p *AgentTarget) Validate() error { return required("target", p.Target) }

// AgentReadParams are the params of agent.read.
type AgentReadParams struct {
	Target    string  `json:"target"`
	Source    string  `json:"source"`
	Format    string  `json:"format,omitempty"`
	Lines     *uint32 `json:"lines,omitempty"`
	StripANSI *bool   `json:"strip_ansi,omitempty"`
}

// Validate implements Params.
func (p *AgentReadParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	return validateRead(p.Source, p.Format)
}

// AgentSendKeysParams are the params of agent.send_keys.
type AgentSendKeysParams struct {
	Target string   `json:"target" cli:"<target>"`
	Keys   []string `json:"keys" cli:"<key...>"`
}

// Validate implements Params: every key must parse before any is sent.
func (p *AgentSendKeysParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	if p.Keys == nil {
		return ParamError("keys", "missing required field")
	}
	return validateKeys(p.Keys)
}

// AgentRenameParams are the params of agent.rename; an absent or empty name clears it.
type AgentRenameParams struct {
	Target string  `json:"target"`
	Name   *string `json:"name,omitempty"`
}

// Validate implements Params.
func (p *AgentRenameParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	if p.Name != nil && *p.Name != "" && !AgentNamePattern().MatchString(*p.Name) {
		return Errorf(CodeInvalidAgentName, "invalid agent name %q: use [a-z][a-z0-9_-]{0,31}", *p.Name)
	}
	return nil
}

// AgentStartParams are the params of agent.start.
type AgentStartParams struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	PaneID    string   `json:"pane_id"`
	Args      []string `json:"args,omitempty"`
	TimeoutMS *uint64  `json:"timeout_ms,omitempty"`
}

// Validate implements Params.
func (p *AgentStartParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if !AgentNamePattern().MatchString(p.Name) {
		return Errorf(CodeInvalidAgentName, "invalid agent name %q: use [a-z][a-z0-9_-]{0,31}", p.Name)
	}
	known := false
	for _, k := range AgentKinds {
		known = known || k == p.Kind
	}
	if !known {
		return Errorf(CodeUnsupportedAgentKind, "unsupported agent kind %q; one of %s", p.Kind, strings.Join(AgentKinds, " "))
	}
	// The command line is typed into the pane's shell, where a control
	// character is an editing key, not text: Ctrl-U would erase the quoted
	// line and Enter run what follows, Tab complete. No quoting survives
	// that, so such arguments are refused rather than escaped.
	for i, a := range p.Args {
		for _, r := range a {
			if isControl(r) {
				return Errorf(CodeInvalidAgentArgument, "agent argument %d contains the control character %U; arguments are typed into the shell and may not", i+1, r)
			}
		}
	}
	if p.TimeoutMS != nil && (*p.TimeoutMS <= 3000 || *p.TimeoutMS > 300000) {
		return Errorf(CodeInvalidAgentTimeout, "timeout_ms must be greater than 3000 and at most 300000, got %d", *p.TimeoutMS)
	}
	return nil
}

// AgentPromptWaitOptions make agent.prompt wait for the agent to settle.
type AgentPromptWaitOptions struct {
	Until     []AgentStatus `json:"until,omitempty"`
	TimeoutMS *uint64       `json:"timeout_ms,omitempty"`
}

// AgentPromptParams are the params of agent.prompt.
type AgentPromptParams struct {
	Target string                  `json:"target"`
	Text   string                  `json:"text"`
	Wait   *AgentPromptWaitOptions `json:"wait,omitempty"`
}

// Validate implements Params.
func (p *AgentPromptParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	if strings.TrimSpace(p.Text) == "" {
		return Errorf(CodeEmptyAgentPrompt, "agent prompt text is empty")
	}
	if p.Wait != nil {
		return validStatuses("wait.until", p.Wait.Until)
	}
	return nil
}

// AgentWaitParams are the params of agent.wait.
type AgentWaitParams struct {
	Target    string        `json:"target"`
	Until     []AgentStatus `json:"until,omitempty"`
	TimeoutMS *uint64       `json:"timeout_ms,omitempty"`
}

// Validate implements Params.
func (p *AgentWaitParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	return validStatuses("until", p.Until)
}

func validStatuses(field string, list []AgentStatus) error {
	for _, st := range list {
		if st == UntilFinished {
			continue
		}
		if err := oneOf(field, string(st), append(agentStatuses, string(UntilFinished))...); err != nil {
			return err
		}
	}
	return nil
}

// UntilFinished (an extension over Herdr's statuses, in until lists only)
// is reached when the agent is done, or idle after it was working since the
// wait began: a focused agent finishes as idle, never done (the seen rule),
// so a script waiting for the end of a turn wants finished.
const UntilFinished AgentStatus = "finished"

// DefaultUntil are the statuses agent.wait and agent.prompt wait for by default.
var DefaultUntil = []AgentStatus{StatusIdle, StatusDone, StatusBlocked}

// AgentManifestInfo describes one agent detection manifest.
type AgentManifestInfo struct {
	Agent                        string  `json:"agent"`
	Source                       string  `json:"source"`
	SourceKind                   string  `json:"source_kind"`
	ActiveVersion                *string `json:"active_version,omitempty"`
	LocalOverrideShadowingRemote bool    `json:"local_override_shadowing_remote"`
	Warning                      *string `json:"warning,omitempty"`
}

// AgentSessionInfo is the agent session a hook reported for a pane.
type AgentSessionInfo struct {
	Source string `json:"source"`
	Agent  string `json:"agent"`
	Kind   string `json:"kind"` // "id" or "path"; "" when only ResumeArgv was reported
	Value  string `json:"value"`
	// ResumeArgv is the command the agent's hook said resumes it; it is
	// saved with the session and never shown in a record (Public).
	ResumeArgv []string `json:"resume_argv,omitempty"`
}

// Public is the reference as records show it: without the resume
// command, and nil when the hook reported only that.
func (s *AgentSessionInfo) Public() *AgentSessionInfo {
	if s == nil || s.Kind == "" {
		return nil
	}
	out := *s
	out.ResumeArgv = nil
	return &out
}

// AgentList answers agent.list.
type AgentList struct {
	Agents []AgentInfo `json:"agents"`
}

// AgentInfoResult answers agent.get, rename, focus and wait.
type AgentInfoResult struct {
	Agent AgentInfo `json:"agent"`
}

// AgentStarted answers agent.start.
type AgentStarted struct {
	Agent AgentInfo `json:"agent"`
	Argv  []string  `json:"argv"`
}

// AgentPrompted answers agent.prompt.
type AgentPrompted struct {
	Agent AgentInfo `json:"agent"`
}

// AgentExplainResult answers agent.explain.
type AgentExplainResult struct {
	Explain AgentExplanation `json:"explain"`
}

// AgentExplanation is the evidence behind an agent's state: the manifest,
// the winning rule and every rule evaluated with the region it looked at.
// The schema leaves its shape open; this is ours.
type AgentExplanation struct {
	PaneID                       string          `json:"pane_id,omitempty"`
	Agent                        string          `json:"agent"`
	State                        string          `json:"state"`
	DetectedAgent                *string         `json:"detected_agent"`
	ScreenState                  *string         `json:"screen_state"`
	ManifestSource               *string         `json:"manifest_source"`
	ManifestVersion              *string         `json:"manifest_version"`
	CachedRemoteVersion          *string         `json:"cached_remote_version"`
	LocalOverrideShadowingRemote bool            `json:"local_override_shadowing_remote"`
	RemoteUpdateStatus           *string         `json:"remote_update_status"`
	RemoteUpdateError            *string         `json:"remote_update_error"`
	MatchedRule                  *ExplainedRule  `json:"matched_rule"`
	VisibleIdle                  bool            `json:"visible_idle"`
	VisibleBlocker               bool            `json:"visible_blocker"`
	VisibleWorking               bool            `json:"visible_working"`
	ScreenDetectionSkipped       bool            `json:"screen_detection_skipped"`
	ScreenDetectionSkipReason    *string         `json:"screen_detection_skip_reason,omitempty"`
	HookAuthority                *string         `json:"hook_authority"`
	SkipStateUpdate              bool            `json:"skip_state_update"`
	SkippedUpdateReason          *string         `json:"skipped_update_reason"`
	FallbackReason               *string         `json:"fallback_reason"`
	Warning                      *string         `json:"warning"`
	EvaluatedRules               []ExplainedRule `json:"evaluated_rules"`
}

// ExplainedRule is one screen rule in an explanation; Matched and Evidence
// are set for evaluated rules.
type ExplainedRule struct {
	ID       string           `json:"id"`
	Priority int              `json:"priority"`
	Region   string           `json:"region"`
	State    string           `json:"state"`
	Matched  bool             `json:"matched"`
	Evidence *ExplainEvidence `json:"evidence,omitempty"`
}

// ExplainEvidence is what a rule's region held.
type ExplainEvidence struct {
	RegionBytes   int    `json:"region_bytes"`
	RegionPreview string `json:"region_preview"`
}

// AgentViewResult answers agent.view.set and agent.view.clear.
type AgentViewResult struct {
	Active bool    `json:"active"`
	Label  *string `json:"label,omitempty"`
	Source *string `json:"source,omitempty"`
}

// AgentViewList answers agent.view.get (an extension the interactive
// client draws its agent panel from).
type AgentViewList struct {
	Active bool    `json:"active"`
	Label  *string `json:"label,omitempty"`
	Source *string `json:"source,omitempty"`
	// Sorted is true when the view has its own sort; otherwise the client
	// orders PaneIDs by its ui.agent_panel_sort.
	Sorted bool `json:"sorted"`
	// PaneIDs are the panes of the agents the view shows, in its order:
	// every agent, in workspace, tab and pane order, without a view.
	PaneIDs []string `json:"pane_ids"`
}

// AgentViewPushEvent is the line the interactive client in front is sent
// when the agent view is set or cleared (no lifecycle event says so); it
// answers by calling agent.view.get again.
const AgentViewPushEvent = "client.agent_view"

// AgentManifestStatus answers server.agent_manifests.
type AgentManifestStatus struct {
	Manifests []AgentManifestInfo `json:"manifests"`
}

// AgentManifestReload answers server.reload_agent_manifests.
type AgentManifestReload struct {
	Manifests []AgentManifestInfo `json:"manifests"`
}

func (AgentList) ResultType() string           { return "agent_list" }
func (AgentInfoResult) ResultType() string     { return "agent_info" }
func (AgentStarted) ResultType() string        { return "agent_started" }
func (AgentPrompted) ResultType() string       { return "agent_prompted" }
func (AgentExplainResult) ResultType() string  { return "agent_explain" }
func (AgentViewResult) ResultType() string     { return "agent_view" }
func (AgentViewList) ResultType() string       { return "agent_view_list" }
func (AgentManifestStatus) ResultType() string { return "agent_manifest_status" }
func (AgentManifestReload) ResultType() string { return "agent_manifest_reload" }

func (p *AgentTarget) TargetID() string         { return p.Target }
func (p *AgentReadParams) TargetID() string     { return p.Target }
func (p *AgentSendKeysParams) TargetID() string { return p.Target }
func (p *AgentRenameParams) TargetID() string   { return p.Target }
func (p *AgentPromptParams) TargetID() string   { return p.Target }
func (p *AgentWaitParams) TargetID() string     { return p.Target }
func (p *AgentStartParams) TargetID() string    { return p.PaneID }

// didNotStart begins the message of an agent.* call naming an agent whose
// agent.start failed.
const didNotStart = " did not start: "

// AgentDidNotStart is the answer to a call naming an agent whose start
// failed: agent_not_found, as for any missing name, saying why.
func AgentDidNotStart(name, reason string) *Error {
	return Errorf(CodeAgentNotFound, "agent %s%s%s", name, didNotStart, reason)
}

// StartFailure is the reason in an AgentDidNotStart message, ok false
// for any other.
func StartFailure(e *Error) (reason string, ok bool) {
	if e == nil || e.Code != CodeAgentNotFound {
		return "", false
	}
	_, reason, ok = strings.Cut(e.Message, didNotStart)
	return reason, ok
}
