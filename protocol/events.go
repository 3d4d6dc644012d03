package protocol

import (
	"encoding/json"
	"strconv"
	"strings"
)

var eventsMethods = []Method{
	{Name: "events.subscribe", Access: AccessRead, Since: "0.2.0", Params: func() Params { return &EventsSubscribeParams{} }, Result: "subscription_started", Summary: "Stream events on this connection", Owner: OwnerEvents, Shape: ShapeStream},
	{Name: "events.wait", Access: AccessRead, Since: "0.2.0", Params: func() Params { return &EventsWaitParams{} }, Result: "wait_matched", Summary: "Wait for one event (or a state that already matches)", Owner: OwnerEvents, Shape: ShapeWait},
}

// EventData is implemented by every lifecycle event payload; EventKind is
// the underscore wire kind, repeated as data.type.
type EventData interface {
	EventKind() string
}

// LifecycleKinds are the 26 lifecycle event kinds in the seeds' order,
// then the task board's four (an extension).
var LifecycleKinds = []string{
	"workspace_created", "workspace_updated", "workspace_metadata_updated", "workspace_closed",
	"workspace_renamed", "workspace_moved", "workspace_reordered", "workspace_focused",
	"worktree_created", "worktree_opened", "worktree_removed",
	"tab_created", "tab_closed", "tab_renamed", "tab_moved", "tab_focused",
	"pane_created", "pane_closed", "pane_updated", "pane_focused", "pane_moved", "pane_output_changed",
	"pane_exited", "pane_agent_detected", "pane_agent_status_changed", "layout_updated",
	"task_created", "task_updated", "task_activity", "task_removed",
	"agent_queue_changed",
}

// Dedicated subscription types, pushed in the dotted envelope without a type.
const (
	SubOutputMatched      = "pane.output_matched"
	SubAgentStatusChanged = "pane.agent_status_changed"
	SubScrollChanged      = "pane.scroll_changed"
)

// SubscriptionKind maps a dotted subscription type to its lifecycle kind
// ("pane.created" → "pane_created"); ok is false for unknown types.
func SubscriptionKind(typ string) (string, bool) {
	kind := strings.Replace(typ, ".", "_", 1)
	if kind == "pane_output_changed" {
		return "", false // reachable through events.wait only
	}
	for _, k := range LifecycleKinds {
		if k == kind {
			return kind, true
		}
	}
	return "", false
}

// EncodeEvent renders a lifecycle event line: {"event":kind,"data":{"type":kind,…}}.
// A non-zero seq is added as "seq", an extension that since_seq resumes from.
func EncodeEvent(d EventData, seq uint64) ([]byte, error) {
	body, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
		Seq   uint64          `json:"seq,omitempty"`
	}{d.EventKind(), withType(d.EventKind(), body), seq})
}

// EncodeDedicated renders a dedicated subscription event: {"event":name,"data":{…}}.
func EncodeDedicated(name string, data any) ([]byte, error) {
	return json.Marshal(struct {
		Event string `json:"event"`
		Data  any    `json:"data"`
	}{name, data})
}

// Subscription is one entry of events.subscribe.
type Subscription struct {
	Type        string       `json:"type"`
	PaneID      string       `json:"pane_id,omitempty"`
	Source      string       `json:"source,omitempty"`
	Lines       *uint32      `json:"lines,omitempty"`
	Match       *OutputMatch `json:"match,omitempty"`
	StripANSI   *bool        `json:"strip_ansi,omitempty"`
	AgentStatus *string      `json:"agent_status,omitempty"`
}

// EventsSubscribeParams are the params of events.subscribe. SinceSeq is an
// extension: resume after that sequence number while it is still retained.
type EventsSubscribeParams struct {
	Subscriptions []Subscription `json:"subscriptions"`
	SinceSeq      *uint64        `json:"since_seq,omitempty"`
	// FleetScope: "machines":"all" adds every machine's events of the
	// same kinds, and machine_state_changed (an extension).
	FleetScope
	// RemoteInitial are the dedicated lines of other machines' panes
	// that already have the agent_status a subscription asks for, which
	// the machines actor finds in its mirrors (never on the wire).
	RemoteInitial [][]byte `json:"-"`
}

// NamesMachine returns the first machine a subscription's pane id is
// qualified with ("build/w1:p1"), if any.
func (p *EventsSubscribeParams) NamesMachine() (string, bool) {
	for _, s := range p.Subscriptions {
		if m, _, ok := SplitQualified(s.PaneID); ok {
			return m, true
		}
	}
	return "", false
}

var agentStatuses = []string{"idle", "working", "blocked", "done", "unknown"}

// Validate implements Params.
func (p *EventsSubscribeParams) Validate() error {
	if err := p.FleetScope.Validate(); err != nil {
		return err
	}
	if p.Subscriptions == nil {
		return ParamError("subscriptions", "missing required field")
	}
	for i, s := range p.Subscriptions {
		field := "subscriptions[" + strconv.Itoa(i) + "]"
		switch s.Type {
		case SubOutputMatched:
			if err := required(field+".pane_id", s.PaneID); err != nil {
				return err
			}
			if err := validateRead(s.Source, ""); err != nil {
				return err
			}
			if s.Match == nil {
				return ParamError(field+".match", "missing required field")
			}
			if err := oneOf(field+".match.type", s.Match.Type, "substring", "regex"); err != nil {
				return err
			}
		case SubAgentStatusChanged:
			if err := required(field+".pane_id", s.PaneID); err != nil {
				return err
			}
			if s.AgentStatus != nil {
				if err := oneOf(field+".agent_status", *s.AgentStatus, agentStatuses...); err != nil {
					return err
				}
			}
		case SubScrollChanged:
			if err := required(field+".pane_id", s.PaneID); err != nil {
				return err
			}
		default:
			if _, ok := SubscriptionKind(s.Type); !ok {
				return ParamError(field+".type", "unknown subscription type %q", s.Type)
			}
		}
	}
	return nil
}

// EventMatch selects the event events.wait waits for.
type EventMatch struct {
	Event       string  `json:"event"`
	WorkspaceID *string `json:"workspace_id,omitempty"`
	TabID       *string `json:"tab_id,omitempty"`
	PaneID      *string `json:"pane_id,omitempty"`
	Label       *string `json:"label,omitempty"`
	Agent       *string `json:"agent,omitempty"`
	AgentStatus *string `json:"agent_status,omitempty"`
	MinRevision *uint64 `json:"min_revision,omitempty"`
	// SeenRevision (pane_output_changed, an extension) is the pane revision
	// the caller has already seen: the wait answers once the pane is past it.
	SeenRevision *uint64 `json:"seen_revision,omitempty"`
}

// waitRequires lists the fields a wait for event must give; false when
// events.wait cannot wait for it. A switch, not a map literal: a map at
// package level is built at every herdr call's start.
func waitRequires(event string) ([]string, bool) {
	switch event {
	case "workspace_created", "tab_created", "pane_created":
		return nil, true
	case "workspace_updated", "workspace_closed", "workspace_renamed", "workspace_moved", "workspace_focused":
		return []string{"workspace_id"}, true
	case "tab_closed", "tab_renamed", "tab_moved", "tab_focused":
		return []string{"tab_id"}, true
	case "pane_closed", "pane_focused", "pane_moved", "pane_output_changed", "pane_exited", "pane_agent_detected":
		return []string{"pane_id"}, true
	case "pane_agent_status_changed":
		return []string{"pane_id", "agent_status"}, true
	}
	return nil, false
}

// EventsWaitParams are the params of events.wait.
type EventsWaitParams struct {
	MatchEvent *EventMatch `json:"match_event"`
	TimeoutMS  *uint64     `json:"timeout_ms,omitempty"`
	// AllowExtensions (ours) opts in to the matches Herdr does not wait
	// for (pane_output_changed): without it they are refused with Herdr's
	// unsupported_event_wait_match, so a client written against Herdr
	// sees Herdr's answer.
	AllowExtensions bool `json:"allow_extensions,omitempty"`
}

// ExtensionWaits are the events.wait matches only AllowExtensions reaches.
var ExtensionWaits = map[string]bool{"pane_output_changed": true}

// Validate implements Params.
func (p *EventsWaitParams) Validate() error {
	m := p.MatchEvent
	if m == nil {
		return ParamError("match_event", "missing required field")
	}
	need, ok := waitRequires(m.Event)
	if !ok {
		return Errorf("unsupported_event_wait_match", "events.wait cannot wait for %q", m.Event)
	}
	if ExtensionWaits[m.Event] && !p.AllowExtensions {
		return Errorf("unsupported_event_wait_match", "events.wait on %s is an extension over Herdr: pass \"allow_extensions\": true", m.Event)
	}
	given := map[string]*string{"workspace_id": m.WorkspaceID, "tab_id": m.TabID, "pane_id": m.PaneID, "agent_status": m.AgentStatus}
	for _, f := range need {
		if v := given[f]; v == nil || *v == "" {
			return ParamError("match_event."+f, "missing required field for %s", m.Event)
		}
	}
	if (m.MinRevision != nil || m.SeenRevision != nil) && m.Event != "pane_output_changed" {
		return ParamError("match_event", "min_revision and seen_revision apply to pane_output_changed only")
	}
	if m.MinRevision != nil && m.SeenRevision != nil {
		return ParamError("match_event.seen_revision", "give min_revision or seen_revision, not both")
	}
	if m.AgentStatus != nil {
		return oneOf("match_event.agent_status", *m.AgentStatus, agentStatuses...)
	}
	return nil
}

// SubscriptionStarted acknowledges events.subscribe. Initial holds event
// lines to write right after the acknowledgement (statuses that already
// match); it is not part of the result.
type SubscriptionStarted struct {
	Initial [][]byte `json:"-"`
}

// WaitMatched answers events.wait with the matching event.
type WaitMatched struct {
	Event json.RawMessage `json:"event"`
}

func (SubscriptionStarted) ResultType() string { return "subscription_started" }
func (WaitMatched) ResultType() string         { return "wait_matched" }

// Lifecycle event payloads.
type (
	// WorkspaceEvent carries a workspace record (created, updated, metadata_updated).
	WorkspaceEvent struct {
		Kind      string        `json:"-"`
		Workspace WorkspaceInfo `json:"workspace"`
	}
	// WorkspaceClosedEvent says a workspace closed.
	WorkspaceClosedEvent struct {
		WorkspaceID string         `json:"workspace_id"`
		Workspace   *WorkspaceInfo `json:"workspace,omitempty"`
	}
	// WorkspaceRenamedEvent says a workspace was renamed.
	WorkspaceRenamedEvent struct {
		WorkspaceID string `json:"workspace_id"`
		Label       string `json:"label"`
	}
	// WorkspaceMovedEvent says a workspace moved.
	WorkspaceMovedEvent struct {
		WorkspaceID string          `json:"workspace_id"`
		InsertIndex int             `json:"insert_index"`
		Workspaces  []WorkspaceInfo `json:"workspaces"`
	}
	// WorkspaceReorderedEvent says a block of workspaces moved.
	WorkspaceReorderedEvent struct {
		WorkspaceIDs      []string        `json:"workspace_ids"`
		BeforeWorkspaceID *string         `json:"before_workspace_id,omitempty"`
		Workspaces        []WorkspaceInfo `json:"workspaces"`
	}
	// WorkspaceFocusedEvent says a workspace got focus.
	WorkspaceFocusedEvent struct {
		WorkspaceID string `json:"workspace_id"`
	}
	// TabCreatedEvent says a tab was created.
	TabCreatedEvent struct {
		Tab TabInfo `json:"tab"`
	}
	// TabRefEvent names a tab (closed, focused).
	TabRefEvent struct {
		Kind        string `json:"-"`
		TabID       string `json:"tab_id"`
		WorkspaceID string `json:"workspace_id"`
	}
	// TabRenamedEvent says a tab was renamed.
	TabRenamedEvent struct {
		TabID       string `json:"tab_id"`
		WorkspaceID string `json:"workspace_id"`
		Label       string `json:"label"`
	}
	// TabMovedEvent says a tab moved.
	TabMovedEvent struct {
		TabID       string    `json:"tab_id"`
		WorkspaceID string    `json:"workspace_id"`
		InsertIndex int       `json:"insert_index"`
		Tabs        []TabInfo `json:"tabs"`
	}
	// PaneEvent carries a pane record (created, updated).
	PaneEvent struct {
		Kind string   `json:"-"`
		Pane PaneInfo `json:"pane"`
	}
	// PaneRefEvent names a pane (closed, focused, exited).
	PaneRefEvent struct {
		Kind        string `json:"-"`
		PaneID      string `json:"pane_id"`
		WorkspaceID string `json:"workspace_id"`
	}
	// PaneMovedEvent says a pane moved.
	PaneMovedEvent struct {
		Pane                PaneInfo       `json:"pane"`
		PreviousPaneID      string         `json:"previous_pane_id"`
		PreviousTabID       string         `json:"previous_tab_id"`
		PreviousWorkspaceID string         `json:"previous_workspace_id"`
		ClosedTabID         *string        `json:"closed_tab_id,omitempty"`
		ClosedWorkspaceID   *string        `json:"closed_workspace_id,omitempty"`
		CreatedTab          *TabInfo       `json:"created_tab,omitempty"`
		CreatedWorkspace    *WorkspaceInfo `json:"created_workspace,omitempty"`
	}
	// PaneOutputChangedEvent says a pane's screen changed.
	PaneOutputChangedEvent struct {
		PaneID      string `json:"pane_id"`
		WorkspaceID string `json:"workspace_id"`
		Revision    uint64 `json:"revision"`
	}
	// PaneAgentStatusChangedEvent says a pane's agent status changed.
	PaneAgentStatusChangedEvent struct {
		PaneID       string            `json:"pane_id"`
		WorkspaceID  string            `json:"workspace_id"`
		AgentStatus  AgentStatus       `json:"agent_status"`
		Agent        *string           `json:"agent,omitempty"`
		DisplayAgent *string           `json:"display_agent,omitempty"`
		Title        *string           `json:"title,omitempty"`
		StateLabels  map[string]string `json:"state_labels,omitempty"`
	}
	// PaneAgentDetectedEvent says which agent runs in a pane.
	PaneAgentDetectedEvent struct {
		PaneID      string       `json:"pane_id"`
		WorkspaceID string       `json:"workspace_id"`
		Agent       *string      `json:"agent,omitempty"`
		FinalStatus *AgentStatus `json:"final_status,omitempty"`
		Released    bool         `json:"released,omitempty"`
	}
	// LayoutUpdatedEvent carries a tab's new layout.
	LayoutUpdatedEvent struct {
		Layout PaneLayoutSnapshot `json:"layout"`
	}
	// PaneScrollChangedEvent is the payload of pane.scroll_changed.
	PaneScrollChangedEvent struct {
		PaneID      string         `json:"pane_id"`
		WorkspaceID string         `json:"workspace_id"`
		Scroll      PaneScrollInfo `json:"scroll"`
	}
	// PaneOutputMatchedEvent is the payload of pane.output_matched.
	PaneOutputMatchedEvent struct {
		PaneID      string         `json:"pane_id"`
		MatchedLine string         `json:"matched_line"`
		Read        PaneReadResult `json:"read"`
	}
)

func (e WorkspaceEvent) EventKind() string            { return e.Kind }
func (WorkspaceClosedEvent) EventKind() string        { return "workspace_closed" }
func (WorkspaceRenamedEvent) EventKind() string       { return "workspace_renamed" }
func (WorkspaceMovedEvent) EventKind() string         { return "workspace_moved" }
func (WorkspaceReorderedEvent) EventKind() string     { return "workspace_reordered" }
func (WorkspaceFocusedEvent) EventKind() string       { return "workspace_focused" }
func (TabCreatedEvent) EventKind() string             { return "tab_created" }
func (e TabRefEvent) EventKind() string               { return e.Kind }
func (TabRenamedEvent) EventKind() string             { return "tab_renamed" }
func (TabMovedEvent) EventKind() string               { return "tab_moved" }
func (e PaneEvent) EventKind() string                 { return e.Kind }
func (e PaneRefEvent) EventKind() string              { return e.Kind }
func (PaneMovedEvent) EventKind() string              { return "pane_moved" }
func (PaneOutputChangedEvent) EventKind() string      { return "pane_output_changed" }
func (PaneAgentStatusChangedEvent) EventKind() string { return "pane_agent_status_changed" }
func (PaneAgentDetectedEvent) EventKind() string      { return "pane_agent_detected" }
func (LayoutUpdatedEvent) EventKind() string          { return "layout_updated" }
