package session

import (
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// An agent's public status adds "done" to the screen state: an idle agent
// whose finished turn the user has not seen yet. seen turns true whenever
// the agent is not idle; on a completion (working or blocked → idle, or
// unknown → idle for the same agent) it becomes whether its tab is the one
// on screen; an agent that appears idle is seen (it finished nothing yet);
// focusing a tab marks all its panes seen. Reads never do.

// rank orders statuses for roll-ups: blocked > done > working > idle > unknown.
var rank = map[protocol.AgentStatus]int{
	protocol.StatusBlocked: 4, protocol.StatusDone: 3, protocol.StatusWorking: 2, protocol.StatusIdle: 1, protocol.StatusUnknown: 0,
}

// computeStatus derives the public status from the pane's effective agent
// and state (hook authority applied) and its seen bit.
func computeStatus(p *paneRec) protocol.AgentStatus {
	agent, state, _ := effective(p)
	if agent == "" {
		return protocol.StatusUnknown
	}
	switch st := protocol.AgentStatus(state); st {
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
	for _, t := range w.Tabs {
		out = append(out, s.tabPanes(t)...)
	}
	return out
}

// agentChanged follows a change of the agent or screen state a pane
// reported: an agent whose process went away takes its hook authority
// with it; then the effective state is reconciled.
func (s *Session) agentChanged(p *paneRec, old pane.Facts) {
	h := s.hookOf(p, old)
	if old.Agent != "" && p.facts.Agent != old.Agent {
		h.exited = old.Agent
		if h.auth != nil && h.auth.agent == old.Agent {
			h.auth = nil
		}
	}
	if p.facts.Agent != "" && h.exited == p.facts.Agent {
		h.exited = ""
	}
	s.reconcile(p)
}

// reconcile applies the seen rule after the pane's effective agent or
// state changed, keeps the agent's name with its agent, and publishes
// what changed.
func (s *Session) reconcile(p *paneRec) {
	h := s.hookOf(p, p.facts)
	agent, state, skipped := effective(p)
	oldAgent, oldState := h.effAgent, h.effState
	h.effAgent, h.effState, h.skipped = agent, state, skipped
	switch {
	case state != string(protocol.StatusIdle):
		p.seen = true
	case agent != oldAgent:
		p.seen = true // an agent that just appeared has finished nothing yet
	case oldState == string(protocol.StatusWorking) || oldState == string(protocol.StatusBlocked) ||
		(oldState == string(protocol.StatusUnknown) && oldAgent == agent):
		if oldState != state || oldAgent != agent {
			p.seen = s.m.TabFocused(p.Tab)
		}
	}
	if agent != oldAgent || h.released != nil {
		ev := protocol.PaneAgentDetectedEvent{PaneID: p.ID, WorkspaceID: p.WS.ID}
		if agent != "" {
			ev.Agent = protocol.Ptr(agent)
		}
		if h.released != nil {
			ev.Released, ev.FinalStatus = true, h.released
		}
		f := s.paneFields(p)
		f.Agent = agent
		s.emit(ev, f)
		s.keepName(p, oldAgent)
	}
	s.refreshStatus(p)
	s.checkWaits(p)
}

// keepName clears a name whose agent went away, and settles a pending launch.
func (s *Session) keepName(p *paneRec, oldAgent string) {
	h := p.hook
	if h.name == "" {
		return
	}
	agent := h.effAgent
	switch {
	case h.launchPending && agent == h.nameKind:
		h.launchPending = false
	case h.launchPending && agent == "":
	case h.launchPending, oldAgent == h.nameKind:
		h.name, h.nameKind, h.launchPending = "", "", false
	}
}

// refreshStatus recomputes a pane's public status and announces a change.
func (s *Session) refreshStatus(p *paneRec) {
	st := computeStatus(p)
	if st == s.agentStatus(p) && p.status != "" {
		return
	}
	p.status = st
	s.stateSeq++
	p.stateSeq = s.stateSeq
	f := s.paneFields(p)
	f.Agent, f.AgentStatus = effAgent(p), string(st)
	s.emit(s.statusEventFull(p), f)
	s.checkWaits(p)
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
