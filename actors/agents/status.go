package agents

import (
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// An agent's public status adds "done" to the screen state: an idle agent
// whose finished turn the user has not seen yet. seen turns true whenever
// the agent is not idle; on a completion (working or blocked → idle, or
// unknown → idle for the same agent) it becomes whether its tab is the one
// on screen; an agent that appears idle is seen (it finished nothing yet);
// focusing a tab marks all its panes seen. Reads never do. Each
// completion also counts in the pane's completion_seq, which only goes up
// (two turns finished in a row are two, though the status stays done).

// Rank orders statuses for roll-ups and attention: blocked > done >
// working > idle > unknown.
var Rank = map[protocol.AgentStatus]int{
	protocol.StatusBlocked: 4, protocol.StatusDone: 3, protocol.StatusWorking: 2, protocol.StatusIdle: 1, protocol.StatusUnknown: 0,
}

// computeStatus derives the public status from the pane's effective agent
// and state (hook authority applied) and its seen bit.
func computeStatus(r *rec) protocol.AgentStatus {
	agent, state, _ := effective(r)
	if agent == "" {
		return protocol.StatusUnknown
	}
	switch st := protocol.AgentStatus(state); st {
	case protocol.StatusIdle:
		if !r.seen {
			return protocol.StatusDone
		}
		return st
	case protocol.StatusWorking, protocol.StatusBlocked:
		return st
	}
	return protocol.StatusUnknown
}

// screenChanged follows a change of the agent or screen state a pane
// reported: an agent whose process went away takes its hook authority
// with it; then the effective state is reconciled.
func (a *Agents) screenChanged(r *rec, agent, state string) {
	if agent == r.agent && state == r.state {
		return
	}
	old := r.agent
	r.agent, r.state = agent, state
	if old != "" && agent != old {
		h := a.hookOf(r)
		h.exited = old
		if h.auth != nil && h.auth.agent == old {
			h.auth = nil
		}
	}
	if h := r.hook; h != nil && agent != "" && h.exited == agent {
		h.exited = ""
	}
	a.reconcile(r)
}

// jobChanged follows what holds the pane's terminal. When a program the
// shell ran gives the terminal back to the shell alone, an agent that
// reported itself (hook authority the screen does not show) has exited
// with it and is cleared, as Herdr does: nothing else would ever say so
// for an agent the detector does not recognise. A report made while the
// shell waits at its prompt is kept until a program has run and ended
// (Herdr drops it within a second; integrations and scripts that report
// from a shell count on it staying).
func (a *Agents) jobChanged(r *rec, job pane.JobKind) {
	was := r.job
	r.job = job
	if was != pane.JobOther || job != pane.JobShell || r.hook == nil || r.hook.auth == nil || r.agent != "" {
		return
	}
	// Not marked exited: the next run's report of the same agent counts.
	a.opts.Log.Debug("self-reported agent exited", "pane", r.PaneID, "agent", r.hook.auth.agent)
	r.hook.auth = nil
	a.reconcile(r)
}

// reconcile applies the seen rule after the pane's effective agent or
// state changed, keeps the agent's name with its agent, and publishes
// what changed.
func (a *Agents) reconcile(r *rec) {
	agent, state, _ := effective(r)
	oldAgent, oldState := r.effAgent, r.effState
	r.effAgent, r.effState = agent, state
	switch {
	case state != string(protocol.StatusIdle):
		r.seen = true
	case agent != oldAgent:
		r.seen = true // an agent that just appeared has finished nothing yet
	case oldState == string(protocol.StatusWorking) || oldState == string(protocol.StatusBlocked) ||
		(oldState == string(protocol.StatusUnknown) && oldAgent == agent):
		if oldState != state || oldAgent != agent {
			r.seen = r.TabID == a.focusedTab
			r.completions++ // a finished turn, seen or not
		}
	}
	a.touch(r)
	var released *protocol.AgentStatus
	if r.hook != nil {
		released = r.hook.released
	}
	if agent != oldAgent || released != nil {
		ev := protocol.PaneAgentDetectedEvent{PaneID: r.PaneID, WorkspaceID: r.WorkspaceID}
		if agent != "" {
			ev.Agent = protocol.Ptr(agent)
		}
		if released != nil {
			ev.Released, ev.FinalStatus = true, released
		}
		a.emit(ev, r)
		a.keepName(r, oldAgent)
	}
	a.refreshStatus(r)
	a.checkWaits(r)
}

// keepName clears a name whose agent went away, and settles a pending launch.
func (a *Agents) keepName(r *rec, oldAgent string) {
	h := r.hook
	if h == nil || h.name == "" {
		return
	}
	agent := r.effAgent
	switch {
	case h.launchPending && agent == h.nameKind:
		h.launchPending = false
	case h.launchPending && agent == "":
	case h.launchPending, oldAgent == h.nameKind:
		h.name, h.nameKind, h.launchPending = "", "", false
	}
}

// refreshStatus recomputes a pane's public status and announces a change.
func (a *Agents) refreshStatus(r *rec) {
	st := computeStatus(r)
	if st == r.status {
		return
	}
	r.status = st
	a.stateSeq++
	r.stateSeq = a.stateSeq
	a.touch(r)
	a.emit(a.statusEvent(r), r)
	a.checkWaits(r)
}

// markSeen marks every pane of a tab seen (the user is looking at it).
func (a *Agents) markSeen(tabID string) {
	for _, r := range a.order {
		if r.TabID == tabID && !r.seen {
			r.seen = true
			a.refreshStatus(r)
		}
	}
}

// statusEvent is the status event with the pane's presentation.
func (a *Agents) statusEvent(r *rec) protocol.PaneAgentStatusChangedEvent {
	ev := protocol.PaneAgentStatusChangedEvent{PaneID: r.PaneID, WorkspaceID: r.WorkspaceID, AgentStatus: r.status}
	if ag := effAgent(r); ag != "" {
		ev.Agent = protocol.Ptr(ag)
	}
	ev.Title, ev.DisplayAgent, ev.StateLabels = presentationOf(r)
	return ev
}
