package tui

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// The inbox key on its own: it walks the blocked agents in the sidebar's
// order from the focused pane, wrapping, skips the others, and says so
// when none is blocked; the sidebar's queue token shows queued prompts.
func TestNavigator_StepBlocked(t *testing.T) {
	snap := twoPanes() // w1:p2 focused; w1:p1 blocked
	claude := "claude"
	snap.Agents = append(snap.Agents,
		protocol.AgentInfo{PaneID: "w1:p3", WorkspaceID: "w1", Agent: &claude, AgentStatus: protocol.StatusWorking},
		protocol.AgentInfo{PaneID: "w1:p4", WorkspaceID: "w1", Agent: &claude, AgentStatus: protocol.StatusBlocked})
	h := &fakeNavigatorHost{session: session{snap: snap}}
	md := modeTerminal
	n := &navigator{h: h, mode: &md}
	n.stepBlocked() // from w1:p2 (not blocked): the first blocked
	p4 := "w1:p4"
	h.snap.FocusedPaneID = &p4
	n.stepBlocked() // from w1:p4, the last: round to w1:p1
	if got := strings.Join(h.did, ","); got != "pane.focus w1:p1,pane.focus w1:p1" {
		t.Fatalf("steps: %s", got)
	}
	p1 := "w1:p1"
	h.snap.FocusedPaneID = &p1
	n.stepBlocked()
	if h.did[len(h.did)-1] != "pane.focus w1:p4" {
		t.Fatalf("from w1:p1: %v", h.did)
	}
	for i := range h.snap.Agents {
		h.snap.Agents[i].AgentStatus = protocol.StatusIdle
	}
	h.did = nil
	n.stepBlocked()
	if len(h.did) != 1 || !strings.HasPrefix(h.did[0], "toast no agent is waiting") {
		t.Fatalf("none blocked: %v", h.did)
	}

	sb := &sidebar{}
	if _, ok := sb.queueToken(protocol.AgentInfo{}); ok {
		t.Fatal("an empty queue shows a token")
	}
}
