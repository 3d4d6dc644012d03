package view

import (
	"sync/atomic"

	"testing"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// tiny is a published View of one workspace with one tab of two panes
// side by side, the second focused.
func tiny() *ReadSide {
	v := &View{
		Spaces:      []Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1"}, TabEnd: 1, PaneEnd: 2}},
		Tabs:        []Tab{{Info: protocol.TabInfo{TabID: "w1:t1"}, PaneEnd: 2}},
		FocusedPane: 1, FocusedWS: "w1", FocusedTab: "w1:t1",
	}
	v.Tabs[0].Layout = &protocol.PaneLayoutSnapshot{TabID: "w1:t1", Area: protocol.Rect{Width: 100, Height: 40}, Panes: []protocol.PaneLayoutPane{
		{PaneID: "w1:p1", Rect: protocol.Rect{Width: 50, Height: 40}}, {PaneID: "w1:p2", Focused: true, Rect: protocol.Rect{X: 50, Width: 50, Height: 40}}}}
	v.Panes = make([]atomic.Pointer[Pane], 2)
	v.Panes[0].Store(&Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TabID: "w1:t1"}})
	v.Panes[1].Store(&Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", TabID: "w1:t1"}})
	v.Index()
	r := NewReadSide()
	r.Publish(v)
	return r
}

func call(method string, p protocol.Params) *kit.Call {
	return &kit.Call{ID: "1", Method: method, Params: p}
}

// read routes a call from r as a connection does; nil when it cannot say.
func read(r *ReadSide, c *kit.Call) *kit.Reply {
	m, _ := protocol.Lookup(c.Method)
	routed, ok := r.Route(c, m, kit.Owners{})
	if !ok {
		return nil
	}
	return routed.Reply
}

// The read side answers every id form, and the error of an id that names
// nothing, as the model resolves them; it says nothing before a View is
// published, and routes no write of the session's.
func TestRoute_AnswersEveryIDAndItsError(t *testing.T) {
	if r := read(NewReadSide(), call("pane.list", &protocol.PaneListParams{})); r != nil {
		t.Fatal("a read side with nothing published answered")
	}
	r := tiny()
	id := func(s string) *string { return &s }
	if got := read(r, call("pane.current", &protocol.PaneCurrentParams{})); got == nil || got.Result.(protocol.PaneCurrent).Pane.PaneID != "w1:p2" {
		t.Fatalf("pane.current: %+v, want the focused w1:p2", got)
	}
	edges := read(r, call("pane.edges", &protocol.PaneOptionalTarget{PaneID: id("w1:p1")})).Result.(protocol.PaneEdges).Edges
	if !edges.Left || edges.Right || !edges.Up || !edges.Down {
		t.Fatalf("w1:p1's edges: %+v, want left, up and down", edges)
	}
	if got := read(r, call("pane.get", &protocol.PaneTarget{PaneID: "p_1"})); got == nil || got.Err != nil || got.Result.(protocol.PaneInfoResult).Pane.PaneID != "w1:p1" {
		t.Fatalf("pane.get p_1 (a legacy form): %+v", got)
	}
	if got := read(r, call("tab.list", &protocol.TabListParams{WorkspaceID: id("1")})); got == nil || len(got.Result.(protocol.TabList).Tabs) != 1 {
		t.Fatalf("tab.list of workspace 1 (a position): %+v", got)
	}
	for _, c := range []struct {
		call *kit.Call
		want string
	}{
		{call("pane.current", &protocol.PaneCurrentParams{CallerPaneID: id("w9:p9")}), "pane_not_found: pane w9:p9 not found"},
		{call("agent.get", &protocol.AgentTarget{Target: "w1:p1"}), "agent_not_found: no agent at w1:p1"},
		{call("workspace.get", &protocol.WorkspaceTarget{WorkspaceID: "w7"}), "workspace_not_found: workspace w7 not found"},
		{call("tab.get", &protocol.TabTarget{TabID: "w1:t9"}), "tab_not_found: tab w1:t9 not found"},
	} {
		got := read(r, c.call)
		if got == nil || got.Err == nil {
			t.Fatalf("%s %+v: %+v, want %s", c.call.Method, c.call.Params, got, c.want)
		}
		if e := protocol.AsError(got.Err); e.Code+": "+e.Message != c.want {
			t.Errorf("%s %+v: %s: %s, want %s", c.call.Method, c.call.Params, e.Code, e.Message, c.want)
		}
	}
	// A View without layout trees (built by hand) still answers these.
	for _, c := range []*kit.Call{call("pane.neighbor", &protocol.PaneDirectionParams{Direction: "left"}), call("layout.export", &protocol.LayoutExportParams{})} {
		if got := read(r, c); got == nil || got.Err != nil {
			t.Errorf("%s on a View without trees: %+v", c.Method, got)
		}
	}
	if m, _ := protocol.Lookup("pane.split"); Routes(m) {
		t.Error("the read side routes pane.split, a write of the session's")
	}
}

// Present answers a wait from the View's records: a state already shown
// gives its event, anything else nil (the bus then waits).
func TestPresent_MatchesTheViewsState(t *testing.T) {
	r := tiny()
	v := r.Newest()
	agent := "claude"
	v.Panes[0].Store(&Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "t1", WorkspaceID: "w1", TabID: "w1:t1",
		Revision: 7, AgentStatus: protocol.AgentStatus("idle"), Agent: &agent}})
	v.Panes[1].Store(&Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", TerminalID: "t2", WorkspaceID: "w1", TabID: "w1:t1", Focused: true}})
	v.Spaces[0].Info.Label, v.Spaces[0].Info.Focused, v.Tabs[0].Info.Focused = "api", true, true
	v.Index() // the records now have terminals
	for _, c := range []struct {
		m    events.Match
		want bool
	}{
		{events.Match{Kind: "pane_agent_status_changed", TermID: "t1", AgentStatus: "idle"}, true},
		{events.Match{Kind: "pane_agent_status_changed", TermID: "t1", AgentStatus: "working"}, false},
		{events.Match{Kind: "pane_output_changed", TermID: "t1", MinRevision: 7}, true},
		{events.Match{Kind: "pane_output_changed", TermID: "t1", MinRevision: 8}, false},
		{events.Match{Kind: "pane_focused", TermID: "t2"}, true},
		{events.Match{Kind: "pane_focused", TermID: "t1"}, false},
		{events.Match{Kind: "tab_focused", TabID: "w1:t1"}, true},
		{events.Match{Kind: "tab_focused", TabID: "w1:t2"}, false},
		{events.Match{Kind: "workspace_focused", WorkspaceID: "w1"}, true},
		{events.Match{Kind: "workspace_renamed", WorkspaceID: "w1", Label: "api"}, true},
		{events.Match{Kind: "workspace_renamed", WorkspaceID: "w1", Label: "web"}, false},
		{events.Match{Kind: "pane_exited", TermID: "t1"}, false},
	} {
		got := r.Present(c.m)
		if (got != nil) != c.want {
			t.Errorf("Present(%+v) = %+v, want a match: %v", c.m, got, c.want)
		}
	}
	ev, ok := r.Present(events.Match{Kind: "pane_agent_status_changed", TermID: "t1", AgentStatus: "idle"}).(protocol.PaneAgentStatusChangedEvent)
	if !ok || ev.PaneID != "w1:p1" || ev.Agent == nil || *ev.Agent != "claude" {
		t.Fatalf("status event = %+v", ev)
	}
}
