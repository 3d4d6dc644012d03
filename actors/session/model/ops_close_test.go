package model

import (
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// TestOps_Close closes panes, tabs and workspaces of opsModel and checks
// what is left, the events in order and the effects: every closed pane
// stops, an emptied tab and workspace retire, focus moves to a neighbour.
func TestOps_Close(t *testing.T) {
	env := fakeEnv{}
	cases := []struct {
		name string
		op   func(tx *Tx) (string, Out)
		want string
	}{
		{"a pane beside another", func(tx *Tx) (string, Out) {
			_, o, _ := tx.PaneClose(env, nil, tx.m.Pane("w1:p2"))
			t1 := tx.m.Workspace("w1").tabs[0]
			return gist(t1.root.Leaves(), tx.m.FocusedPane().id, tx.m.Pane("w1:p2") == nil), o
		}, "[term_1] w1:p1 true / pane_closed w1:p2, |, stop w1:p2, arrange w1:t1"},
		{"the focused pane", func(tx *Tx) (string, Out) {
			o := tx.ClosePane(env, tx.m.Pane("w1:p1"))
			return gist(tx.m.FocusedPane().id), o
		}, "w1:p2 / pane_closed w1:p1, |, stop w1:p1, arrange w1:t1"},
		{"a tab's last pane", func(tx *Tx) (string, Out) {
			_, o, _ := tx.PaneClose(env, nil, tx.m.Pane("w1:p3"))
			return gist(len(tx.m.Workspace("w1").tabs)), o
		}, "1 / pane_closed w1:p3, tab_closed w1:t2, |, stop w1:p3, retire w1:t2"},
		{"a workspace's last pane", func(tx *Tx) (string, Out) {
			_, o, _ := tx.PaneClose(env, nil, tx.m.Pane("w2:p1"))
			return gist(len(tx.m.workspaces), tx.m.Workspace("w2") == nil), o
		}, "1 true / pane_closed w2:p1, tab_closed w2:t1, workspace_closed w2, |, stop w2:p1, retire w2:t1, retire w2"},
		{"a tab", func(tx *Tx) (string, Out) {
			w1 := tx.m.Workspace("w1")
			_, o, _ := tx.TabClose(env, nil, w1.tabs[0])
			return gist(len(w1.tabs), w1.active.id, tx.m.FocusedPane().id), o
		}, "1 w1:t2 w1:p3 / pane_closed w1:p1, pane_closed w1:p2, tab_closed w1:t1, workspace_updated w1, |, stop w1:p1, stop w1:p2, retire w1:t1"},
		{"a workspace's last tab", func(tx *Tx) (string, Out) {
			_, o, _ := tx.TabClose(env, nil, tx.m.Workspace("w2").tabs[0])
			return gist(tx.m.Workspace("w2") == nil), o
		}, "true / pane_closed w2:p1, tab_closed w2:t1, workspace_closed w2, |, stop w2:p1, retire w2:t1, retire w2"},
		{"a workspace", func(tx *Tx) (string, Out) {
			_, o, _ := tx.WorkspaceClose(env, &protocol.WorkspaceCloseParams{}, tx.m.Workspace("w1"))
			return gist(tx.m.focused.id, tx.m.FocusedPane().id, tx.m.Pane("w1:p3") == nil), o
		}, "w2 w2:p1 true / pane_closed w1:p1, pane_closed w1:p2, tab_closed w1:t1, pane_closed w1:p3, tab_closed w1:t2, workspace_closed w1, |, " +
			"stop w1:p1, stop w1:p2, retire w1:t1, stop w1:p3, retire w1:t2, retire w1"},
		{"the last workspace", func(tx *Tx) (string, Out) {
			o := tx.CloseWorkspace(env, tx.m.Workspace("w1"))
			o2 := tx.CloseWorkspace(env, tx.m.Workspace("w2"))
			o.Events, o.Effects = append(o.Events, o2.Events...), append(o.Effects, o2.Effects...)
			return gist(len(tx.m.workspaces), tx.m.focused == nil, len(tx.m.panes), len(tx.m.terms)), o
		}, "0 true 0 0 / pane_closed w1:p1, pane_closed w1:p2, tab_closed w1:t1, pane_closed w1:p3, tab_closed w1:t2, workspace_closed w1, " +
			"pane_closed w2:p1, tab_closed w2:t1, workspace_closed w2, |, stop w1:p1, stop w1:p2, retire w1:t1, stop w1:p3, retire w1:t2, retire w1, " +
			"stop w2:p1, retire w2:t1, retire w2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := opsModel(t)
			tx := m.Begin()
			g, o := c.op(tx)
			tx.Commit()
			check(t, m, c.name)
			if got := g + " / " + outLine(o); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestOps_CloseOverlay: an overlay pane still focused in its tab gives the
// focus back to the pane it covered, and the tab its zoom, when it
// closes; one that lost the focus, or whose covered pane is gone, leaves
// the focus where the layout puts it.
func TestOps_CloseOverlay(t *testing.T) {
	type ov = struct {
		prev   string
		zoomed bool
	}
	cases := []struct {
		name    string
		overlay ov
		focused string // the terminal focused in w1:t1 before the close
		want    string // w1:t1's focused terminal and zoom after closing w1:p2 (term_2)
	}{
		{"focused, over a zoomed tab", ov{"term_1", true}, "term_2", "term_1 true"},
		{"focused, over an unzoomed tab", ov{"term_1", false}, "term_2", "term_1 false"},
		{"no longer focused", ov{"term_1", true}, "term_1", "term_1 false"},
		{"its pane gone to another tab", ov{"term_3", true}, "term_2", "term_1 false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := opsModel(t)
			t1 := m.Workspace("w1").tabs[0]
			setup := m.Begin()
			setup.FocusInTab(t1, c.focused, c.focused == "term_2")
			p2 := m.Pane("w1:p2")
			set(setup, &p2.covers, c.overlay.prev)
			set(setup, &p2.coverZoomed, c.overlay.zoomed)
			setup.Commit()
			env := fakeEnv{}
			tx := m.Begin()
			o := tx.ClosePane(env, m.Pane("w1:p2"))
			tx.Commit()
			check(t, m, c.name)
			if got := gist(t1.focused, t1.zoomed); got != c.want {
				t.Errorf("focus after the close: %s, want %s", got, c.want)
			}
			if got := outLine(o); got != "pane_closed w1:p2, |, stop w1:p2, arrange w1:t1" {
				t.Errorf("out: %s", got)
			}
		})
	}
}

// TestOps_WorkspaceCloseGroup: a main checkout's workspace with a
// worktree open refuses to close alone, writing nothing; with
// close_group it closes with its worktree, the worktree's first.
func TestOps_WorkspaceCloseGroup(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	main, _ := b.workspace("main")
	wt, _ := b.workspace("wt")
	b.workspace("other")
	b.tx.SetWorktree(main, &protocol.WorkspaceWorktreeInfo{RepoKey: "r"})
	b.tx.SetWorktree(wt, &protocol.WorkspaceWorktreeInfo{RepoKey: "r", IsLinkedWorktree: true})
	b.tx.Commit()
	m := b.m
	env := fakeEnv{}

	before := dump(m)
	tx := m.Begin()
	_, o, err := tx.WorkspaceClose(env, &protocol.WorkspaceCloseParams{}, main)
	if err == nil || protocol.AsError(err).Code != protocol.CodeGroupCloseRequired {
		t.Fatalf("closing the main checkout alone: %v, want %s", err, protocol.CodeGroupCloseRequired)
	}
	if tx.Changed() || dump(m) != before || len(o.Events)+len(o.Effects) > 0 {
		t.Fatalf("the refused close wrote something: %s\n%s", outLine(o), dump(m))
	}
	tx.Discard()

	tx = m.Begin()
	_, o, err = tx.WorkspaceClose(env, &protocol.WorkspaceCloseParams{CloseGroup: true}, main)
	if err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	check(t, m, "group closed")
	if got := gist(len(m.workspaces), m.workspaces[0].label); got != "1 other" {
		t.Errorf("left: %s, want 1 other", got)
	}
	want := "pane_closed w2:p1, tab_closed w2:t1, workspace_closed w2, pane_closed w1:p1, tab_closed w1:t1, workspace_closed w1, |, " +
		"stop w2:p1, retire w2:t1, retire w2, stop w1:p1, retire w1:t1, retire w1"
	if got := outLine(o); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
