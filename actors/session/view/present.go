package view

import (
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/protocol"
)

// Present is events.wait's fast path, which the bus runs on each wait
// (events.Present): the event a wait would get when the newest View
// already shows the state it waits for (a status, a focus, a label, a
// revision), nil when it does not. The session resolved the match's ids
// before it handed the wait to the bus, and the View the bus reads is at
// least the one published after that.
func (r *ReadSide) Present(m events.Match) protocol.EventData {
	v := r.Newest()
	if v == nil {
		return nil
	}
	switch m.Kind {
	case "pane_agent_status_changed":
		if p := v.term(m.TermID); p != nil && string(p.Info.AgentStatus) == m.AgentStatus {
			return StatusEvent(&p.Info)
		}
	case "pane_output_changed":
		if p := v.term(m.TermID); p != nil && p.Info.Revision >= m.MinRevision {
			return protocol.PaneOutputChangedEvent{PaneID: p.Info.PaneID, WorkspaceID: p.Info.WorkspaceID, Revision: p.Info.Revision}
		}
	case "pane_focused":
		if p := v.term(m.TermID); p != nil && p.Info.Focused {
			return protocol.PaneRefEvent{Kind: m.Kind, PaneID: p.Info.PaneID, WorkspaceID: p.Info.WorkspaceID}
		}
	case "tab_focused":
		if i, ok := v.TabByID[m.TabID]; ok && v.Tabs[i].Info.Focused {
			return protocol.TabRefEvent{Kind: m.Kind, TabID: m.TabID, WorkspaceID: v.Tabs[i].Info.WorkspaceID}
		}
	case "workspace_focused":
		if i, ok := v.WSByID[m.WorkspaceID]; ok && v.Spaces[i].Info.Focused {
			return protocol.WorkspaceFocusedEvent{WorkspaceID: m.WorkspaceID}
		}
	case "workspace_renamed":
		if i, ok := v.WSByID[m.WorkspaceID]; ok && m.Label != "" && v.Spaces[i].Info.Label == m.Label {
			return protocol.WorkspaceRenamedEvent{WorkspaceID: m.WorkspaceID, Label: m.Label}
		}
	case "tab_renamed":
		if i, ok := v.TabByID[m.TabID]; ok && m.Label != "" && v.Tabs[i].Info.Label == m.Label {
			return protocol.TabRenamedEvent{TabID: m.TabID, WorkspaceID: v.Tabs[i].Info.WorkspaceID, Label: m.Label}
		}
	}
	return nil
}

// StatusEvent is the pane_agent_status_changed event of a pane's present
// status, as its record shows it.
func StatusEvent(info *protocol.PaneInfo) protocol.PaneAgentStatusChangedEvent {
	ev := protocol.PaneAgentStatusChangedEvent{PaneID: info.PaneID, WorkspaceID: info.WorkspaceID, AgentStatus: info.AgentStatus}
	if info.Agent != nil {
		ev.Agent = protocol.Ptr(*info.Agent)
	}
	return ev
}

// term is the record of the pane of a terminal, nil for none ("" names
// none).
func (v *View) term(termID string) *Pane { return v.Term(termID) }

// Term is the record of the pane of terminal termID, nil for none (or
// for a nil View).
func (v *View) Term(termID string) *Pane {
	if v == nil {
		return nil
	}
	if i, ok := v.ByTerm[termID]; ok {
		return v.Rec(i)
	}
	return nil
}
