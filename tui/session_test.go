package tui

import (
	"slices"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// The session on its own: the questions the client asks of a snapshot,
// answered from the snapshot alone (no model, no server).
func TestSession_OnItsOwn(t *testing.T) {
	ws, tab, pane := "w1", "w1:t1", "w1:p2"
	label := "logs"
	s := session{snap: protocol.SessionSnapshot{
		FocusedWorkspaceID: &ws, FocusedTabID: &tab, FocusedPaneID: &pane,
		Workspaces: []protocol.WorkspaceInfo{{WorkspaceID: "w1", Label: "api", TabCount: 2}, {WorkspaceID: "w2", Label: "web", TabCount: 1}},
		Tabs:       []protocol.TabInfo{{TabID: "w1:t1", WorkspaceID: "w1", Label: "main"}, {TabID: "w1:t2", WorkspaceID: "w1", Label: "side"}, {TabID: "w2:t1", WorkspaceID: "w2", Label: "only"}},
		Panes: []protocol.PaneInfo{
			{PaneID: "w1:p1", TabID: "w1:t1", WorkspaceID: "w1"},
			{PaneID: "w1:p2", TabID: "w1:t1", WorkspaceID: "w1", Label: &label},
			{PaneID: "w2:p1", TabID: "w2:t1", WorkspaceID: "w2"},
		},
		Layouts: []protocol.PaneLayoutSnapshot{{WorkspaceID: "w1", TabID: "w1:t1", FocusedPaneID: "w1:p2",
			Panes: []protocol.PaneLayoutPane{{PaneID: "w1:p2"}, {PaneID: "w1:p1"}}}},
	}}
	if got := s.visiblePanes(); !slices.Equal(got, []string{"w1:p1", "w1:p2"}) {
		t.Errorf("visible panes = %v, want both of the focused tab, sorted", got)
	}
	s.snap.Layouts[0].Zoomed = true
	if got := s.visiblePanes(); !slices.Equal(got, []string{"w1:p2"}) {
		t.Errorf("zoomed: visible panes = %v, want the focused one alone", got)
	}
	if got := s.focusedTabs(); len(got) != 2 || got[1].TabID != "w1:t2" {
		t.Errorf("focused tabs = %v, want w1's two", got)
	}
	if l, last := s.lastTabOf("w2:t1"); l != "web" || !last {
		t.Errorf("lastTabOf(w2:t1) = %q %v, want web true", l, last)
	}
	if _, last := s.lastTabOf("w1:t1"); last {
		t.Error("w1:t1 is not its workspace's last tab")
	}
	if got := s.panesOf("", "w1"); len(got) != 2 {
		t.Errorf("panes of w1 = %v", got)
	}
	if got := s.windowTitle("", "{workspace} / {tab} / {pane}"); got != "api / main / logs" {
		t.Errorf("window title = %q", got)
	}
	if got := s.windowTitle("set by a program", "{workspace}"); got != "set by a program" {
		t.Errorf("a program's title should win, got %q", got)
	}
	if got := s.workspaceLabel("gone"); got != "gone" {
		t.Errorf("an unknown workspace is named by its id, got %q", got)
	}
	s.snap.FocusedTabID = nil
	if _, ok := s.focusedLayout(); ok {
		t.Error("no focused tab: no focused layout")
	}
}
