package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// fakeNavigatorHost is the client as navigation sees it: a session, the
// machines' workspaces, and a log of the requests and toasts.
type fakeNavigatorHost struct {
	session
	remotes []string
	shown   string
	att     string
	did     []string
}

func (h *fakeNavigatorHost) snapshot() *protocol.SessionSnapshot { return &h.snap }
func (h *fakeNavigatorHost) send(method string, params any) {
	switch p := params.(type) {
	case protocol.WorkspaceTarget:
		method += " " + p.WorkspaceID
	case protocol.TabTarget:
		method += " " + p.TabID
	case protocol.PaneTarget:
		method += " " + p.PaneID
	case protocol.PaneDirectionParams:
		method += " " + p.Direction
	}
	h.did = append(h.did, method)
}
func (h *fakeNavigatorHost) toast(text string) tea.Cmd {
	h.did = append(h.did, "toast "+text)
	return nil
}
func (h *fakeNavigatorHost) remoteWorkspaces() []string { return h.remotes }
func (h *fakeNavigatorHost) shownRemote() string        { return h.shown }
func (h *fakeNavigatorHost) showRemote(id string)       { h.shown = id }
func (h *fakeNavigatorHost) sidebarAgents() []protocol.AgentInfo {
	return h.snap.Agents
}
func (h *fakeNavigatorHost) attention() string { return h.att }
func (h *fakeNavigatorHost) takeAttention()    { h.att = "" }

// Navigation on its own (no model, no server): next workspace counts from
// the one asked for until a snapshot shows it, runs on into the machines'
// workspaces and back; navigate mode's keys; the jump to attention.
func TestNavigator_OnItsOwn(t *testing.T) {
	h := &fakeNavigatorHost{session: session{snap: twoPanes()}, remotes: []string{"gpu/w1"}}
	md := modeNavigate
	n := &navigator{h: h, mode: &md}
	n.stepWorkspace(1) // w1 → w2
	n.stepWorkspace(1) // w2 (asked, not yet shown) → gpu's
	if h.shown != "gpu/w1" || strings.Join(h.did, ",") != "workspace.focus w2" {
		t.Fatalf("two presses: shown %q did %v", h.shown, h.did)
	}
	n.stepWorkspace(1) // round to the local w1
	if h.shown != "" || h.did[len(h.did)-1] != "workspace.focus w1" || n.want != "w1" {
		t.Fatalf("wrap: shown %q did %v want %q", h.shown, h.did, n.want)
	}
	n.followSnapshot(&h.snap) // w1 focused: nothing is awaited
	if n.want != "" {
		t.Errorf("a snapshot showing w1 focused should end the wait, want %q", n.want)
	}

	h.did = nil
	n.key(keyRunes("l"))
	n.key(keyRunes("2"))
	n.key(tea.KeyPressMsg{Code: tea.KeyTab}) // one tab: nowhere to go
	n.key(tea.KeyPressMsg{Code: tea.KeyEsc})
	if strings.Join(h.did, ",") != "pane.focus_direction right,workspace.focus w2" || md != modeTerminal {
		t.Fatalf("navigate keys: did %v mode %v", h.did, md)
	}

	h.did = nil
	n.openAttention() // w1:p1 is blocked and not focused
	h.snap.Panes[0].AgentStatus = protocol.StatusWorking
	n.openAttention()
	if strings.Join(h.did, ",") != "pane.focus w1:p1,toast no agent needs attention" {
		t.Fatalf("attention: did %v", h.did)
	}
	h.did = nil
	n.stepAgent(true) // the one agent, from the focused w1:p2
	if strings.Join(h.did, ",") != "pane.focus w1:p1" {
		t.Fatalf("next agent: did %v", h.did)
	}
}
