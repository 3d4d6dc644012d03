package tui

import (
	"slices"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The agent loop in the client (issue 49): a key that walks the inbox
// (the blocked agents, in the sidebar's order) and the sidebar's queue
// token, an agent's queued prompts.

// stepBlocked focuses the next blocked agent after the focused pane, in
// the sidebar's order, wrapping; with none blocked it says so.
func (n *navigator) stepBlocked() tea.Cmd {
	var blocked []protocol.AgentInfo
	for _, a := range n.h.sidebarAgents() {
		if a.AgentStatus == protocol.StatusBlocked {
			blocked = append(blocked, a)
		}
	}
	if len(blocked) == 0 {
		return n.h.toast("no agent is waiting for an answer")
	}
	i := 0
	if cur := slices.IndexFunc(blocked, func(a protocol.AgentInfo) bool { return a.PaneID == n.h.focusedPaneID() }); cur >= 0 {
		i = (cur + 1) % len(blocked)
	}
	n.h.send("pane.focus", protocol.PaneTarget{PaneID: blocked[i].PaneID})
	return nil
}

// queueToken is the sidebar's "queue" token: +N for N queued prompts,
// nothing for none.
func (sb *sidebar) queueToken(a protocol.AgentInfo) (seg, bool) {
	if a.QueueLength <= 0 {
		return seg{}, false
	}
	return seg{text: "+" + strconv.Itoa(a.QueueLength), st: sb.h.th().dim}, true
}

// openReview opens the diff view on the focused workspace (a worktree
// workspace; the server says why another cannot be reviewed).
func (m *model) openReview() tea.Cmd {
	if m.snap.FocusedWorkspaceID == nil {
		return m.toast.show("no workspace to review")
	}
	m.mode = modeDiff
	return m.diff.openDiff(protocol.ReviewSubject{WorkspaceID: *m.snap.FocusedWorkspaceID})
}
