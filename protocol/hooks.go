package protocol

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hook authority and metadata: what agent integrations and scripts report
// about a pane or workspace.
var hookMethods = []Method{
	{Name: "pane.report_agent", Since: "0.3.0", CLI: "pane report-agent <pane> --source ID --agent LABEL --state idle|working|blocked|unknown", CLIHelp: `. Full-lifecycle sources (herdr:pi, herdr:opencode, …)
own the agent's state while it runs; identity-only ones (herdr:claude, herdr:codex, …)
only record its session; any other source's state is used unless the screen shows a
blocker. Reports with --seq not above the last one from the source are ignored.
Prints nothing on success.`, Params: func() Params { return &PaneReportAgentParams{} }, Result: "ok", Summary: "Report a pane's agent and state from a hook", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "pane.report_agent_session", Since: "0.6.7", CLI: "pane report-agent-session <pane> --source ID --agent LABEL [--agent-session-id ID] [--agent-session-path P]", CLIHelp: ". Prints nothing on success.", Params: func() Params { return &PaneReportAgentSessionParams{} }, Result: "ok", Summary: "Report the agent session a pane runs", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "pane.report_metadata", Since: "0.6.3", Params: func() Params { return &PaneReportMetadataParams{} }, Result: "ok", Summary: "Report a pane's title, display name, state labels and tokens", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "pane.clear_agent_authority", Since: "0.3.0", Params: func() Params { return &PaneClearAgentAuthorityParams{} }, Result: "ok", Summary: "Drop hook authority over a pane's agent state", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "pane.release_agent", Since: "0.3.0", CLI: "pane release-agent <pane> --source ID --agent LABEL [--seq N]", CLIHelp: ". Prints nothing on success.", Params: func() Params { return &PaneReleaseAgentParams{} }, Result: "ok", Summary: "End a hook's authority: its agent has finished", Target: TargetPane, Owner: OwnerAgents, Shape: ShapeAnswer},
	{Name: "workspace.report_metadata", Since: "0.7.4", Params: func() Params { return &WorkspaceReportMetadataParams{} }, Result: "ok", Summary: "Report a workspace's tokens", Target: TargetWorkspace, Owner: OwnerWorkspace, Shape: ShapeAnswer},
}

// Metadata error codes and limits.
const (
	CodeInvalidMetadataSource  = "invalid_metadata_source"
	CodeInvalidMetadataToken   = "invalid_metadata_token"
	CodeInvalidMetadataTTL     = "invalid_metadata_ttl"
	CodeInvalidMetadataRequest = "invalid_metadata_request"
	CodeInvalidStateLabel      = "invalid_state_label"
	CodeMetadataTokenLimit     = "metadata_token_limit"
	CodeMetadataSeqSourceLimit = "metadata_sequence_source_limit"

	MaxMetadataText       = 80       // chars of a title, display name, label or token value
	MaxSourceLen          = 80       // chars of a source id
	MaxTokensPerReport    = 16       // tokens in one report
	MaxTokensPerResource  = 32       // tokens a pane or workspace holds
	MaxSequencedSources   = 32       // distinct sources with seq per resource lifetime
	MaxMetadataTTLMillis  = 86400000 // one day
	maxAgentLabelLen      = 80
	stateLabelStatusNames = "idle|working|blocked|done|unknown"
)

var sourcePattern = LazyRegexp(`^[A-Za-z0-9:._-]+$`)

// validSource checks a source id: 1-80 of A-Z a-z 0-9 : . _ -.
func validSource(field, s string) error {
	if s == "" || len(s) > MaxSourceLen || !sourcePattern().MatchString(s) {
		return Errorf(CodeInvalidMetadataSource, "invalid %s %q: use 1-%d of A-Z a-z 0-9 : . _ -", field, s, MaxSourceLen)
	}
	return nil
}

func validAgentLabel(s string) error {
	if strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > maxAgentLabelLen || strings.ContainsFunc(s, unicode.IsControl) {
		return Errorf(CodeInvalidAgent, "invalid agent label %q", s)
	}
	return nil
}

func validTTL(ttl *uint64) error {
	if ttl != nil && (*ttl < 1 || *ttl > MaxMetadataTTLMillis) {
		return Errorf(CodeInvalidMetadataTTL, "ttl_ms must be between 1 and %d, got %d", MaxMetadataTTLMillis, *ttl)
	}
	return nil
}

func validTokens(tokens map[string]*string) error {
	if len(tokens) > MaxTokensPerReport {
		return Errorf(CodeInvalidMetadataToken, "at most %d tokens per report, got %d", MaxTokensPerReport, len(tokens))
	}
	for k := range tokens {
		if !tokenName().MatchString(k) {
			return Errorf(CodeInvalidMetadataToken, "invalid token name %q: use 1-32 of A-Z a-z 0-9 _ -", k)
		}
	}
	return nil
}

// SanitizeText makes one line of display text: line breaks and tabs become
// spaces, other control characters are dropped, runs of white space
// collapse, the ends are trimmed, and at most limit characters are kept.
func SanitizeText(s string, limit int) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if r == '\n' || r == '\r' || r == '\t' || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			continue
		}
		if space {
			if n+1 >= limit {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= limit {
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// PaneReportAgentParams are the params of pane.report_agent.
type PaneReportAgentParams struct {
	PaneID           string  `json:"pane_id" cli:"<pane>"`
	Source           string  `json:"source" cli:"--source" help:"who reports (e.g. herdr:pi or my-hook)"`
	Agent            string  `json:"agent" cli:"--agent" help:"the agent's label"`
	State            string  `json:"state" cli:"--state" help:"idle, working, blocked or unknown"`
	Message          *string `json:"message,omitempty" cli:"--message" help:"a note on the state"`
	Seq              *uint64 `json:"seq,omitempty" cli:"--seq" help:"ordering number; reports not above the last are ignored"`
	AgentSessionID   *string `json:"agent_session_id,omitempty" cli:"--agent-session-id" help:"the agent's session id"`
	AgentSessionPath *string `json:"agent_session_path,omitempty" cli:"--agent-session-path" help:"the agent's session file"`
	// ResumeArgv is the exact command that resumes the agent's session
	// after a restart (Herdr 0.9.2); restore runs it, quoted, in the
	// pane's new shell.
	ResumeArgv []string `json:"resume_argv,omitempty"`
}

// Validate implements Params.
func (p *PaneReportAgentParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	if err := validAgentLabel(p.Agent); err != nil {
		return err
	}
	if err := required("state", p.State); err != nil {
		return err
	}
	if err := ValidResumeArgv(p.ResumeArgv); err != nil {
		return err
	}
	return oneOf("state", p.State, "idle", "working", "blocked", "unknown")
}

// Limits of a resume_argv.
const (
	MaxResumeArgs   = 128
	MaxResumeArgLen = 4096
)

// ValidResumeArgv checks a reported resume_argv: absent, or a program
// and its arguments, each a line of printable text within the limits
// (it is typed into a shell, quoted, so nothing else may end it).
func ValidResumeArgv(argv []string) error {
	if len(argv) == 0 {
		return nil
	}
	if strings.TrimSpace(argv[0]) == "" {
		return ParamError("resume_argv", "must name the program to run first")
	}
	if len(argv) > MaxResumeArgs {
		return ParamError("resume_argv", "at most %d words, got %d", MaxResumeArgs, len(argv))
	}
	for i, a := range argv {
		if len(a) > MaxResumeArgLen || strings.ContainsFunc(a, unicode.IsControl) || !utf8.ValidString(a) {
			return ParamError("resume_argv", "word %d must be valid text of at most %d bytes without control characters", i, MaxResumeArgLen)
		}
	}
	return nil
}

// PaneReportAgentSessionParams are the params of pane.report_agent_session.
type PaneReportAgentSessionParams struct {
	PaneID             string   `json:"pane_id" cli:"<pane>"`
	Source             string   `json:"source" cli:"--source" help:"who reports"`
	Agent              string   `json:"agent" cli:"--agent" help:"the agent's label"`
	Seq                *uint64  `json:"seq,omitempty" cli:"--seq" help:"ordering number; reports not above the last are ignored"`
	AgentSessionID     *string  `json:"agent_session_id,omitempty" cli:"--agent-session-id" help:"the agent's session id"`
	AgentSessionPath   *string  `json:"agent_session_path,omitempty" cli:"--agent-session-path" help:"the agent's session file"`
	SessionStartSource *string  `json:"session_start_source,omitempty" cli:"--session-start-source" help:"why the session started (startup, resume, …)"`
	ResumeArgv         []string `json:"resume_argv,omitempty"`
}

// Validate implements Params.
func (p *PaneReportAgentSessionParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	if err := ValidResumeArgv(p.ResumeArgv); err != nil {
		return err
	}
	return validAgentLabel(p.Agent)
}

// PaneReportMetadataParams are the params of pane.report_metadata.
type PaneReportMetadataParams struct {
	PaneID            string             `json:"pane_id"`
	Source            string             `json:"source"`
	Agent             *string            `json:"agent,omitempty"`
	AppliesToSource   *string            `json:"applies_to_source,omitempty"`
	Title             *string            `json:"title,omitempty"`
	ClearTitle        bool               `json:"clear_title,omitempty"`
	DisplayAgent      *string            `json:"display_agent,omitempty"`
	ClearDisplayAgent bool               `json:"clear_display_agent,omitempty"`
	StateLabels       map[string]string  `json:"state_labels,omitempty"`
	ClearStateLabels  bool               `json:"clear_state_labels,omitempty"`
	Tokens            map[string]*string `json:"tokens,omitempty"`
	Seq               *uint64            `json:"seq,omitempty"`
	TTLMS             *uint64            `json:"ttl_ms,omitempty"`
}

// Validate implements Params.
func (p *PaneReportMetadataParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	if p.AppliesToSource != nil {
		if err := validSource("applies_to_source", *p.AppliesToSource); err != nil {
			return err
		}
	}
	if p.Agent != nil {
		if err := validAgentLabel(*p.Agent); err != nil {
			return err
		}
	}
	if p.Title != nil && p.ClearTitle {
		return Errorf(CodeInvalidMetadataRequest, "title and clear_title are exclusive")
	}
	if p.DisplayAgent != nil && p.ClearDisplayAgent {
		return Errorf(CodeInvalidMetadataRequest, "display_agent and clear_display_agent are exclusive")
	}
	for k := range p.StateLabels {
		if !strings.Contains("|"+stateLabelStatusNames+"|", "|"+k+"|") {
			return Errorf(CodeInvalidStateLabel, "invalid state label %q: keys are %s", k, stateLabelStatusNames)
		}
	}
	if err := validTokens(p.Tokens); err != nil {
		return err
	}
	return validTTL(p.TTLMS)
}

// PaneClearAgentAuthorityParams are the params of pane.clear_agent_authority.
type PaneClearAgentAuthorityParams struct {
	PaneID string  `json:"pane_id"`
	Source *string `json:"source,omitempty"`
	Seq    *uint64 `json:"seq,omitempty"`
}

// Validate implements Params.
func (p *PaneClearAgentAuthorityParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if p.Source != nil {
		return validSource("source", *p.Source)
	}
	return nil
}

// PaneReleaseAgentParams are the params of pane.release_agent.
type PaneReleaseAgentParams struct {
	PaneID string  `json:"pane_id" cli:"<pane>"`
	Source string  `json:"source" cli:"--source" help:"who reports"`
	Agent  string  `json:"agent" cli:"--agent" help:"the agent's label"`
	Seq    *uint64 `json:"seq,omitempty" cli:"--seq" help:"ordering number; reports not above the last are ignored"`
}

// Validate implements Params.
func (p *PaneReleaseAgentParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	return validAgentLabel(p.Agent)
}

// WorkspaceReportMetadataParams are the params of workspace.report_metadata.
type WorkspaceReportMetadataParams struct {
	WorkspaceID string             `json:"workspace_id"`
	Source      string             `json:"source"`
	Tokens      map[string]*string `json:"tokens"`
	Seq         *uint64            `json:"seq,omitempty"`
	TTLMS       *uint64            `json:"ttl_ms,omitempty"`
}

// Validate implements Params.
func (p *WorkspaceReportMetadataParams) Validate() error {
	if err := required("workspace_id", p.WorkspaceID); err != nil {
		return err
	}
	if err := validSource("source", p.Source); err != nil {
		return err
	}
	if p.Tokens == nil {
		return ParamError("tokens", "missing required field")
	}
	if err := validTokens(p.Tokens); err != nil {
		return err
	}
	return validTTL(p.TTLMS)
}

func (p *PaneReportAgentParams) TargetID() string         { return p.PaneID }
func (p *PaneReportAgentSessionParams) TargetID() string  { return p.PaneID }
func (p *PaneReportMetadataParams) TargetID() string      { return p.PaneID }
func (p *PaneClearAgentAuthorityParams) TargetID() string { return p.PaneID }
func (p *PaneReleaseAgentParams) TargetID() string        { return p.PaneID }
