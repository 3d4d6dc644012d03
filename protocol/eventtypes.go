package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// EventTypes gives each lifecycle event kind (LifecycleKinds) the type of
// its data, for the schema `herdr api schema` prints; the kinds that
// share a type (WorkspaceEvent, TabRefEvent, PaneEvent, PaneRefEvent) set
// Kind to say which.
func EventTypes() map[string]EventData {
	return map[string]EventData{
		"workspace_created":          WorkspaceEvent{Kind: "workspace_created"},
		"workspace_updated":          WorkspaceEvent{Kind: "workspace_updated"},
		"workspace_metadata_updated": WorkspaceEvent{Kind: "workspace_metadata_updated"},
		"workspace_closed":           WorkspaceClosedEvent{},
		"workspace_renamed":          WorkspaceRenamedEvent{},
		"workspace_moved":            WorkspaceMovedEvent{},
		"workspace_reordered":        WorkspaceReorderedEvent{},
		"workspace_focused":          WorkspaceFocusedEvent{},
		"worktree_created":           WorktreeCreatedEvent{},
		"worktree_opened":            WorktreeOpenedEvent{},
		"worktree_removed":           WorktreeRemovedEvent{},
		"tab_created":                TabCreatedEvent{},
		"tab_closed":                 TabRefEvent{Kind: "tab_closed"},
		"tab_renamed":                TabRenamedEvent{},
		"tab_moved":                  TabMovedEvent{},
		"tab_focused":                TabRefEvent{Kind: "tab_focused"},
		"pane_created":               PaneEvent{Kind: "pane_created"},
		"pane_closed":                PaneRefEvent{Kind: "pane_closed"},
		"pane_updated":               PaneEvent{Kind: "pane_updated"},
		"pane_focused":               PaneRefEvent{Kind: "pane_focused"},
		"pane_moved":                 PaneMovedEvent{},
		"pane_output_changed":        PaneOutputChangedEvent{},
		"pane_exited":                PaneRefEvent{Kind: "pane_exited"},
		"pane_agent_detected":        PaneAgentDetectedEvent{},
		"pane_agent_status_changed":  PaneAgentStatusChangedEvent{},
		"layout_updated":             LayoutUpdatedEvent{},
		"task_created":               TaskCreatedEvent{},
		"task_updated":               TaskUpdatedEvent{},
		"task_activity":              TaskActivityEvent{},
		"task_removed":               TaskRemovedEvent{},
		"agent_queue_changed":        AgentQueueChangedEvent{},
	}
}

// SubscriptionEventTypes gives each dedicated subscription event the type
// of its data.
func SubscriptionEventTypes() map[string]any {
	return map[string]any{
		SubOutputMatched:      PaneOutputMatchedEvent{},
		SubAgentStatusChanged: PaneAgentStatusChangedEvent{},
		SubScrollChanged:      PaneScrollChangedEvent{},
	}
}

// DecodeEventData decodes the data of a lifecycle event of kind into its
// typed value. It is for events that arrive as JSON (another machine's,
// at its link); events of this server travel typed and are never decoded.
func DecodeEventData(kind string, data []byte) (EventData, error) {
	proto, ok := EventTypes()[kind]
	if !ok {
		return nil, fmt.Errorf("unknown event kind %q", kind)
	}
	v := reflect.New(reflect.TypeOf(proto))
	v.Elem().Set(reflect.ValueOf(proto)) // the shared types' Kind
	if err := Unmarshal(data, v.Interface()); err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return v.Elem().Interface().(EventData), nil
}

// EncodeEventData renders the data of a lifecycle event as EncodeEvent
// writes it, its "type" first: what a plugin hook is given.
func EncodeEventData(d EventData) ([]byte, error) {
	body, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return withType(d.EventKind(), body), nil
}
