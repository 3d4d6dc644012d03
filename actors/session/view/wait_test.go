package view

import (
	"testing"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/protocol"
)

// AfterCaughtUp holds a wait until the session has handled every message
// posted before it, and a View is published; then it runs once.
func TestAfterCaughtUp_WaitsForTheMessagesBefore(t *testing.T) {
	r := NewReadSide()
	ran := 0
	if r.AfterCaughtUp(func() { ran++ }) {
		t.Fatal("caught up with nothing published")
	}
	r.Publish(tiny().Newest())
	if ran != 1 {
		t.Fatalf("after the first publish it ran %d times, want 1", ran)
	}
	if !r.AfterCaughtUp(func() { t.Fatal("ran although caught up") }) {
		t.Fatal("not caught up with nothing posted")
	}
	r.MessagePosted(nil)
	r.MessagePosted(nil)
	if r.AfterCaughtUp(func() { ran++ }) {
		t.Fatal("caught up with two messages waiting")
	}
	r.MessageReceived(nil)
	if ran != 1 {
		t.Fatal("ran with a message before it still waiting")
	}
	r.MessagePosted(nil) // posted after the wait: not waited for
	r.MessageReceived(nil)
	if ran != 2 {
		t.Fatalf("ran %d times once the messages before it were handled, want 2", ran)
	}
	r.MessageReceived(nil)
	if ran != 2 {
		t.Fatal("ran twice")
	}
}

// ResolveWait gives the bus the canonical ids the session gave it, for
// every form the model accepts, and the not-found codes.
func TestResolveWait_AsTheSessionDid(t *testing.T) {
	m := renumbered(t)
	paneOf := func(termID string) (*Pane, protocol.AgentStatus, bool) {
		p := m.Term(termID)
		return &Pane{Info: protocol.PaneInfo{PaneID: p.ID(), TerminalID: p.TermID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Revision: 41}}, protocol.StatusUnknown, true
	}
	r := NewReadSide()
	r.Publish(Build(m, nil, nil, 16, paneOf).View)
	var former string
	for id := range r.Newest().Former {
		former = id
		break
	}
	mp, _ := m.ResolvePane(former)
	s := func(v string) *string { return &v }
	seen := uint64(7)
	for _, c := range []struct {
		in   protocol.EventMatch
		want events.Match
		code string
	}{
		{protocol.EventMatch{Event: "pane_output_changed", PaneID: s(former)}, events.Match{Kind: "pane_output_changed", TermID: mp.TermID(), MinRevision: 42}, ""},
		{protocol.EventMatch{Event: "pane_output_changed", PaneID: s(former), SeenRevision: &seen}, events.Match{Kind: "pane_output_changed", TermID: mp.TermID(), MinRevision: 8}, ""},
		{protocol.EventMatch{Event: "workspace_renamed", WorkspaceID: s("1"), Label: s("x")}, events.Match{Kind: "workspace_renamed", WorkspaceID: m.Workspaces()[0].ID(), Label: "x"}, ""},
		{protocol.EventMatch{Event: "tab_created", TabID: s("t_w1_9")}, events.Match{Kind: "tab_created", TabID: "w1:t9"}, ""},
		{protocol.EventMatch{Event: "workspace_created", WorkspaceID: s("w9")}, events.Match{Kind: "workspace_created", WorkspaceID: "w9"}, ""},
		{protocol.EventMatch{Event: "tab_closed", TabID: s("w1:9")}, events.Match{}, protocol.CodeTabNotFound},
		{protocol.EventMatch{Event: "workspace_closed", WorkspaceID: s("w9")}, events.Match{}, protocol.CodeWorkspaceNotFound},
		{protocol.EventMatch{Event: "pane_exited", PaneID: s("p_99")}, events.Match{}, protocol.CodePaneNotFound},
	} {
		got, err := r.ResolveWait(&c.in)
		if c.code != "" {
			if protocol.AsError(err).Code != c.code {
				t.Errorf("%+v: %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}
