package session

import (
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// An agent's public status adds "done" to the screen state: an idle agent
// whose finished turn the user has not seen yet. seen turns true whenever
// the agent is not idle; on a completion (working or blocked → idle, or
// unknown → idle for the same agent) it becomes whether its tab is the one
// on screen; focusing a tab marks all its panes seen. Reads never do.

// rank orders statuses for roll-ups: blocked > done > working > idle > unknown.
var rank = map[protocol.AgentStatus]int{
	protocol.StatusBlocked: 4, protocol.StatusDone: 3, protocol.StatusWorking: 2, protocol.StatusIdle: 1, protocol.StatusUnknown: 0,
}

// computeStatus derives the public status from the pane's facts and seen bit.
func computeStatus(p *paneRec) protocol.AgentStatus {
	if p.facts.Agent == "" {
		return protocol.StatusUnknown
	}
	switch st := protocol.AgentStatus(p.facts.AgentState); st {
	case protocol.StatusIdle:
		if !p.seen {
			return protocol.StatusDone
		}
		return st
	case protocol.StatusWorking, protocol.StatusBlocked:
		return st
	}
	return protocol.StatusUnknown
}

// agentStatus is a pane's public agent status.
func (s *Session) agentStatus(p *paneRec) protocol.AgentStatus {
	if p.status == "" {
		return protocol.StatusUnknown
	}
	return p.status
}

// rollup is the most urgent status among panes.
func (s *Session) rollup(panes []*paneRec) protocol.AgentStatus {
	best := protocol.StatusUnknown
	for _, p := range panes {
		if st := s.agentStatus(p); rank[st] > rank[best] {
			best = st
		}
	}
	return best
}

func (s *Session) workspacePanes(w *workspace) []*paneRec {
	var out []*paneRec
	for _, t := range w.tabs {
		out = append(out, s.tabPanes(t)...)
	}
	return out
}

// agentChanged applies the seen rule after a pane's agent or screen state
// changed, and publishes what changed.
func (s *Session) agentChanged(p *paneRec, old pane.Facts) {
	st := p.facts.AgentState
	switch {
	case st != string(protocol.StatusIdle):
		p.seen = true
	case old.AgentState == string(protocol.StatusWorking) || old.AgentState == string(protocol.StatusBlocked) ||
		(old.AgentState == string(protocol.StatusUnknown) && old.Agent == p.facts.Agent):
		p.seen = s.tabFocused(p.tab)
	}
	if p.facts.Agent != old.Agent {
		ev := protocol.PaneAgentDetectedEvent{PaneID: p.id, WorkspaceID: p.ws.id}
		if p.facts.Agent != "" {
			ev.Agent = protocol.Ptr(p.facts.Agent)
		}
		f := s.paneFields(p)
		f.Agent = p.facts.Agent
		s.emit(ev, f)
	}
	s.refreshStatus(p)
}

// refreshStatus recomputes a pane's public status and announces a change.
func (s *Session) refreshStatus(p *paneRec) {
	st := computeStatus(p)
	if st == s.agentStatus(p) {
		p.status = st
		return
	}
	p.status = st
	s.stateSeq++
	p.stateSeq = s.stateSeq
	f := s.paneFields(p)
	f.Agent, f.AgentStatus = p.facts.Agent, string(st)
	s.emit(s.statusEvent(p), f)
}

// markSeen marks every pane of a tab seen (the user is looking at it).
func (s *Session) markSeen(t *tab) {
	for _, p := range s.tabPanes(t) {
		if !p.seen {
			p.seen = true
			s.refreshStatus(p)
		}
	}
}
