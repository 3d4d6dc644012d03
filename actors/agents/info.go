package agents

import (
	"encoding/json"

	"github.com/herdr-go/herdr/protocol"
)

// Shown is what the session's read model keeps of one pane's agent: every
// field of the agent's public record the session cannot know itself. The
// actor sends a fresh one whenever any of it changes; its maps are the
// session's to keep.
type Shown struct {
	TermID string
	// Agent is the effective agent ("" for none); State its internal
	// state (idle, working, blocked, unknown), hook authority applied.
	Agent, State string
	// Skipped: hook authority replaces screen detection. Authority is the
	// source holding authority over Agent ("" for none).
	Skipped bool
	// LaunchPending: agent.start still waits for the named agent (Name)
	// to appear (beside Skipped: no padding).
	LaunchPending bool
	Authority     string
	Status        protocol.AgentStatus
	StateSeq      uint64
	// Completions is the agent's completion_seq: its finished turns.
	Completions uint64
	// Queued is the agent's queue_length (QueueLengths).
	Queued int

	Title, DisplayAgent *string
	StateLabels         map[string]string
	Tokens              map[string]string
	Session             *protocol.AgentSessionInfo

	// Name is the agent's name.
	Name string
	// Failed is the last agent.start in the pane whose program did not
	// start (nil for none): rare, so a pointer, and a Shown fits 192 bytes.
	Failed *FailedStart
	// RestoreError says why the pane's agent was not resumed after a
	// restart (pane info's restore_error).
	RestoreError string
}

// FailedStart is an agent.start whose program did not start: the name it
// gave the agent, and the shell's words.
type FailedStart struct{ Name, Reason string }

// HostsAgent reports whether agent.* targets may name the pane: it runs
// an agent, or one is being started there under a name.
func (sh *Shown) HostsAgent() bool { return sh.Agent != "" || sh.Name != "" }

// PublicStatus is the pane's public status (unknown before any report).
func (sh *Shown) PublicStatus() protocol.AgentStatus {
	if sh.Status == "" {
		return protocol.StatusUnknown
	}
	return sh.Status
}

// Decorate adds the agent's part to a pane's record.
func (sh *Shown) Decorate(info *protocol.PaneInfo) {
	info.Agent = nil
	if sh.Agent != "" {
		info.Agent = protocol.Ptr(sh.Agent)
	}
	info.AgentStatus = sh.PublicStatus()
	info.Title, info.DisplayAgent, info.StateLabels = sh.Title, sh.DisplayAgent, sh.StateLabels
	info.Tokens, info.AgentSession = sh.Tokens, sh.Session.Public()
	if sh.RestoreError != "" { // after the session's own reason (its folder), if any
		why := sh.RestoreError
		if info.RestoreError != nil {
			why = *info.RestoreError + "; " + why
		}
		info.RestoreError = &why
	}
}

// Info is the agent record of the pane whose (decorated) record is pi.
func (sh *Shown) Info(pi protocol.PaneInfo) protocol.AgentInfo {
	info := protocol.AgentInfo{
		TerminalID:             pi.TerminalID,
		Agent:                  pi.Agent,
		Title:                  pi.Title,
		TerminalTitle:          pi.TerminalTitle,
		TerminalTitleStripped:  pi.TerminalTitleStripped,
		DisplayAgent:           pi.DisplayAgent,
		AgentStatus:            pi.AgentStatus,
		ScreenDetectionSkipped: sh.Skipped,
		StateLabels:            pi.StateLabels,
		Tokens:                 pi.Tokens,
		AgentSession:           pi.AgentSession,
		WorkspaceID:            pi.WorkspaceID,
		TabID:                  pi.TabID,
		PaneID:                 pi.PaneID,
		Focused:                pi.Focused,
		InteractiveReady:       pi.Agent != nil && sh.State == string(protocol.StatusIdle),
		StateChangeSeq:         sh.StateSeq,
		CompletionSeq:          sh.Completions,
		QueueLength:            sh.Queued,
		Cwd:                    pi.Cwd,
		ForegroundCwd:          pi.ForegroundCwd,
		Revision:               pi.Revision,
	}
	if sh.Name != "" {
		info.Name = protocol.Ptr(sh.Name)
		info.LaunchPending = sh.LaunchPending
		info.InteractiveReady = info.InteractiveReady && !sh.LaunchPending
	}
	return info
}

// PresentationChanged reports whether what metadata shows of the pane
// differs between sh and old (the session announces it as pane_updated).
func (sh *Shown) PresentationChanged(old *Shown) bool {
	return sh.presentationKey() != old.presentationKey()
}

// presentationKey fingerprints the presentation: title, display name,
// labels, tokens and agent session.
func (sh *Shown) presentationKey() string {
	b, _ := json.Marshal([]any{sh.Title, sh.DisplayAgent, sh.StateLabels, sh.Tokens, sh.Session})
	return string(b)
}

// fillPresentation sets the presentation fields of sh from a record.
func fillPresentation(sh *Shown, r *rec) {
	if r.hook == nil {
		return
	}
	sh.Title, sh.DisplayAgent, sh.StateLabels = presentationOf(r)
	sh.Tokens = r.hook.tokens.Wire()
	if s := r.hook.session; s != nil {
		ref := *s
		sh.Session = &ref
	}
}

// shown is the Shown of a record.
func (a *Agents) shown(r *rec) *Shown {
	agent, state, skipped := effective(r)
	sh := &Shown{TermID: r.TermID, Agent: agent, State: state, Skipped: skipped, Status: r.status, StateSeq: r.stateSeq, Completions: r.completions, RestoreError: restoreError(r), Queued: a.queued[r.TermID]}
	fillPresentation(sh, r)
	if h := r.hook; h != nil {
		if h.auth != nil && h.auth.agent == agent {
			sh.Authority = h.auth.source
		}
		sh.Name, sh.LaunchPending = h.name, h.launchPending
		if h.failedName != "" || h.failedReason != "" {
			sh.Failed = &FailedStart{Name: h.failedName, Reason: h.failedReason}
		}
	}
	return sh
}

// Fact implements kit.Fact.
func (*Shown) Fact() {}
