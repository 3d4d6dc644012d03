package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// fakeEnv renders records by their ids only: the operations' answers and
// events are then checked by what they name.
type fakeEnv struct {
	folders map[string]string // by pane id: where its foreground process is
}

func (fakeEnv) WorkspaceInfo(w *Workspace) protocol.WorkspaceInfo {
	return protocol.WorkspaceInfo{WorkspaceID: w.id, Label: w.DisplayLabel()}
}
func (fakeEnv) TabInfo(t *Tab) protocol.TabInfo {
	return protocol.TabInfo{TabID: t.id, WorkspaceID: t.ws.id}
}
func (fakeEnv) PaneInfo(p *Pane) protocol.PaneInfo {
	return protocol.PaneInfo{PaneID: p.id, TerminalID: p.termID, WorkspaceID: p.ws.id, TabID: p.tab.id, Label: protocol.Ptr(p.label)}
}
func (fakeEnv) Layout(t *Tab) protocol.PaneLayoutSnapshot {
	return protocol.PaneLayoutSnapshot{WorkspaceID: t.ws.id, TabID: t.id, Zoomed: t.zoomed}
}
func (e fakeEnv) Folder(p *Pane) string     { return e.folders[p.id] }
func (fakeEnv) AutoLabel(cwd string) string { return "auto:" + cwd }
func (fakeEnv) Fields(s Subject) Fields {
	switch s := s.(type) {
	case *Workspace:
		return Fields{WorkspaceID: s.id}
	case *Tab:
		return Fields{WorkspaceID: s.ws.id, TabID: s.id}
	case *Pane:
		return Fields{WorkspaceID: s.ws.id, TabID: s.tab.id, PaneID: s.id}
	}
	return Fields{}
}

// outLine renders what an operation did: its events (kind and the id
// they are stamped with), then its effects.
func outLine(o Out) string {
	var parts []string
	for _, e := range o.Events {
		id := e.Fields.PaneID
		if id == "" {
			id = e.Fields.TabID
		}
		if id == "" {
			id = e.Fields.WorkspaceID
		}
		parts = append(parts, e.Data.EventKind()+" "+id)
	}
	parts = append(parts, "|")
	for _, e := range o.Effects {
		switch e := e.(type) {
		case Arrange:
			parts = append(parts, "arrange "+e.Tab.id)
		case TellIDs:
			parts = append(parts, "ids "+e.Pane.id)
		case TellRightClick:
			parts = append(parts, "rightclick "+e.Pane.id+"="+e.Pane.rightClick)
		case Start:
			parts = append(parts, fmt.Sprintf("start %s", e.Entity.(interface{ ID() string }).ID()))
		case Retire:
			parts = append(parts, "retire "+e.ID)
		case Stop:
			parts = append(parts, "stop "+e.Pane.id)
		}
	}
	return strings.Join(parts, ", ")
}

// opsModel is w1 (tab t1: p1 | p2, tab t2: p3) and w2 (tab t1: p1),
// committed, with w1:p1 focused.
func opsModel(t *testing.T) *Model {
	b := newBuilder(layout.Rect{W: 120, H: 40})
	w1, p1 := b.workspace("one")
	b.split(p1)
	b.tab(w1)
	b.workspace("two")
	b.tx.FocusPane(p1)
	b.tx.Commit()
	check(t, b.m, "built")
	return b.m
}

// gist joins an answer's telling parts with spaces.
func gist(a ...any) string { return strings.TrimSuffix(fmt.Sprintln(a...), "\n") }

func params[P any](t *testing.T, method, js string) P {
	t.Helper()
	p, err := protocol.DecodeParams(method, []byte(js))
	if err != nil {
		t.Fatalf("%s %s: %v", method, js, err)
	}
	return p.(P)
}

// TestOps_EventsAndEffects runs each operation on a small model and checks
// the answer's gist, the events and the effects it returns; an operation
// that fails must return its error's code and leave the model as it was.
func TestOps_EventsAndEffects(t *testing.T) {
	env := fakeEnv{}
	type result struct {
		gist string
		out  Out
		err  error
	}
	cases := []struct {
		name string
		op   func(t *testing.T, tx *Tx) result
		want string // gist, then the events | effects; or the error's code
	}{
		{"resize", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Resize(env, params[*protocol.PaneResizeParams](t, "pane.resize", `{"pane_id":"w1:p1","direction":"right"}`))
			return result{gist(r.Resize.Changed, r.Resize.FocusedPaneID), o, err}
		}, "true w1:p1 / |, arrange w1:t1"},
		{"resize by 0", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Resize(env, params[*protocol.PaneResizeParams](t, "pane.resize", `{"pane_id":"w1:p1","direction":"right","amount":0}`))
			return result{gist(r.Resize.Changed, *r.Resize.Reason), o, err}
		}, "false unchanged / |"},
		{"resize a pane that is not there", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.Resize(env, params[*protocol.PaneResizeParams](t, "pane.resize", `{"pane_id":"w9:p1","direction":"right"}`))
			return result{"", o, err}
		}, protocol.CodePaneNotFound},
		{"focus right", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.FocusDirection(env, params[*protocol.PaneDirectionParams](t, "pane.focus_direction", `{"direction":"right"}`))
			return result{gist(r.Focus.Changed, *r.Focus.FocusedPaneID, tx.m.FocusedPane().id), o, err}
		}, "true w1:p2 w1:p2 / |, arrange w1:t1"},
		{"focus left of the leftmost", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.FocusDirection(env, params[*protocol.PaneDirectionParams](t, "pane.focus_direction", `{"direction":"left"}`))
			return result{*r.Focus.Reason, o, err}
		}, "no_neighbor / |"},
		{"swap across tabs", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Swap(env, params[*protocol.PaneSwapParams](t, "pane.swap", `{"source_pane_id":"w1:p1","target_pane_id":"w1:p3"}`))
			return result{gist(r.Swap.Changed, *r.Swap.Reason), o, err}
		}, "false cross_tab / |"},
		{"swap right", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Swap(env, params[*protocol.PaneSwapParams](t, "pane.swap", `{"pane_id":"w1:p1","direction":"right"}`))
			return result{gist(r.Swap.Changed, *r.Swap.TargetPaneID, tx.m.Pane("w1:p1").tab.root.Leaves()), o, err}
		}, "true w1:p2 [term_2 term_1] / |, arrange w1:t1"},
		{"zoom a lone pane", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Zoom(env, params[*protocol.PaneZoomParams](t, "pane.zoom", `{"pane_id":"w1:p3","mode":"on"}`))
			return result{*r.Zoom.Reason, o, err}
		}, "single_pane / |"},
		{"zoom", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.Zoom(env, params[*protocol.PaneZoomParams](t, "pane.zoom", `{"pane_id":"w1:p2","mode":"toggle"}`))
			return result{gist(r.Zoom.Zoomed, r.Zoom.FocusChanged, r.Zoom.FocusedPaneID), o, err}
		}, "true true w1:p2 / |, arrange w1:t1"},
		{"split ratio at no split", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.SetSplitRatio(env, params[*protocol.LayoutSetSplitRatioParams](t, "layout.set_split_ratio", `{"tab_id":"w1:t2","path":[true],"ratio":0.3}`))
			return result{"", o, err}
		}, "split_not_found"},
		{"split ratio", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.SetSplitRatio(env, params[*protocol.LayoutSetSplitRatioParams](t, "layout.set_split_ratio", `{"path":[],"ratio":0.3}`))
			d := r.Layout
			return result{gist(d.TabID, tx.m.Pane("w1:p1").tab.root.Ratio, d.Root.Type, *d.Root.Ratio, *d.Root.First.PaneID, *d.Root.Second.PaneID, d.FocusedPaneID), o, err}
		}, "w1:t1 0.3 split 0.3 w1:p1 w1:p2 w1:p1 / |, arrange w1:t1"},
		{"select an unknown layout", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.SelectLayout(env, &protocol.LayoutSelectParams{Layout: "spiral"})
			return result{"", o, err}
		}, protocol.CodeInvalidParams},
		{"select", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.SelectLayout(env, params[*protocol.LayoutSelectParams](t, "layout.select", `{"layout":"even-vertical"}`))
			return result{gist(r.Changed, r.TabID), o, err}
		}, "true w1:t1 / |, arrange w1:t1"},
		{"right click", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.SetInput(env, params[*protocol.PaneInputSetParams](t, "pane.input.set", `{"pane_id":"w1:p2","right_click":"pane"}`))
			return result{"", o, err}
		}, " / |, rightclick w1:p2=pane"},
		{"move into another tab", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.MovePane(env, params[*protocol.PaneMoveParams](t, "pane.move", `{"pane_id":"w1:p3","destination":{"type":"tab","tab_id":"w1:t1","split":"down"}}`))
			return result{gist(*r.MoveResult.ClosedTabID, r.MoveResult.Pane.TabID, len(tx.m.workspaces[0].tabs)), o, err}
		}, "w1:t2 w1:t1 1 / tab_closed w1:t2, pane_moved w1:p3, |, retire w1:t2, ids w1:p3, arrange w1:t1"},
		{"move to a new workspace", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.MovePane(env, params[*protocol.PaneMoveParams](t, "pane.move", `{"pane_id":"w2:p1","destination":{"type":"new_workspace","label":"three"}}`))
			mr := r.MoveResult
			return result{gist(mr.Pane.PaneID, mr.CreatedWorkspace.WorkspaceID, *mr.ClosedWorkspaceID, tx.m.Pane("w2:p1").id), o, err}
		}, "w3:p1 w3 w2 w3:p1 / tab_closed w2:t1, workspace_closed w2, workspace_created w3, tab_created w3:t1, pane_moved w3:p1, |, " +
			"start w3, start w3:t1, retire w2:t1, retire w2, ids w3:p1, arrange w3:t1"},
		{"move beside a pane of another tab", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.MovePane(env, params[*protocol.PaneMoveParams](t, "pane.move", `{"pane_id":"w1:p3","destination":{"type":"tab","tab_id":"w1:t1","split":"down","target_pane_id":"w2:p1"}}`))
			return result{"", o, err}
		}, "target_pane_not_found"},
		{"move to an unknown kind of place", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.MovePane(env, &protocol.PaneMoveParams{PaneID: "w1:p1", Destination: protocol.PaneMoveDestination{Type: "elsewhere"}})
			return result{"", o, err}
		}, protocol.CodeInvalidParams},
		{"move a workspace", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.MoveWorkspace(env, params[*protocol.WorkspaceMoveParams](t, "workspace.move", `{"workspace_id":"w2","insert_index":0}`))
			return result{gist(r.Workspaces[0].WorkspaceID), o, err}
		}, "w2 / workspace_moved w2, |"},
		{"move a block listing one twice", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.MoveWorkspaceBlock(env, &protocol.WorkspaceMoveBlockParams{WorkspaceIDs: []string{"w2", "w2"}})
			return result{"", o, err}
		}, protocol.CodeInvalidParams},
		{"move a block before itself", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.MoveWorkspaceBlock(env, &protocol.WorkspaceMoveBlockParams{WorkspaceIDs: []string{"w2"}, BeforeWorkspaceID: protocol.Ptr("w2")})
			return result{"", o, err}
		}, protocol.CodeInvalidParams},
		{"move a block", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.MoveWorkspaceBlock(env, params[*protocol.WorkspaceMoveBlockParams](t, "workspace.move_block", `{"workspace_ids":["w2"],"before_workspace_id":"w1"}`))
			return result{gist(r.Workspaces[0].WorkspaceID), o, err}
		}, "w2 / workspace_reordered , |"},
		{"move a tab", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.MoveTabTo(env, params[*protocol.TabMoveParams](t, "tab.move", `{"tab_id":"w1:t2","insert_index":0}`))
			return result{gist(r.Tabs[0].TabID), o, err}
		}, "w1:t2 / tab_moved w1:t2, |"},
		{"move a tab that is not there", func(t *testing.T, tx *Tx) result {
			_, o, err := tx.MoveTabTo(env, params[*protocol.TabMoveParams](t, "tab.move", `{"tab_id":"w1:t7","insert_index":0}`))
			return result{"", o, err}
		}, protocol.CodeTabNotFound},
		{"rename", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.PaneRename(env, &protocol.PaneRenameParams{Label: protocol.Ptr("logs")}, tx.m.Pane("w1:p2"))
			return result{*r.Pane.Label, o, err}
		}, "logs / pane_updated w1:p2, |, ids w1:p2"},
		{"focus a pane", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.PaneFocus(env, nil, tx.m.Pane("w2:p1"))
			return result{gist(r.Pane.PaneID, tx.m.focused.id, tx.m.FocusedPane().id), o, err}
		}, "w2:p1 w2 w2:p1 / |"},
		{"focus a tab", func(t *testing.T, tx *Tx) result {
			w1 := tx.m.Workspace("w1")
			r, o, err := tx.TabFocus(env, nil, w1.tabs[1])
			return result{gist(r.Tab.TabID, w1.active.id, tx.m.FocusedPane().id), o, err}
		}, "w1:t2 w1:t2 w1:p3 / |"},
		{"focus a workspace", func(t *testing.T, tx *Tx) result {
			r, o, err := tx.WorkspaceFocus(env, nil, tx.m.Workspace("w2"))
			return result{gist(r.Workspace.WorkspaceID, tx.m.focused.id), o, err}
		}, "w2 w2 / |"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := opsModel(t)
			before := dump(m)
			tx := m.Begin()
			r := c.op(t, tx)
			if r.err != nil {
				if tx.Changed() || dump(m) != before { // before any discard: it wrote nothing
					t.Errorf("a failed operation changed the model:\n%s\nwas\n%s", dump(m), before)
				}
				tx.Discard()
				if got := protocol.AsError(r.err).Code; got != c.want {
					t.Fatalf("error %v, want code %s", r.err, c.want)
				}
				if len(r.out.Events)+len(r.out.Effects) > 0 {
					t.Errorf("a failed operation returned %s", outLine(r.out))
				}
				return
			}
			tx.Commit()
			check(t, m, c.name)
			if got := r.gist + " / " + outLine(r.out); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestCloseGroup: a main checkout's workspace with worktrees open closes
// only with close_group, and then with them.
func TestCloseGroup(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	main, _ := b.workspace("main")
	wt, _ := b.workspace("wt")
	other, _ := b.workspace("other")
	b.tx.SetWorktree(main, &protocol.WorkspaceWorktreeInfo{RepoKey: "r"})
	b.tx.SetWorktree(wt, &protocol.WorkspaceWorktreeInfo{RepoKey: "r", IsLinkedWorktree: true})
	b.tx.Commit()
	if _, err := b.m.CloseGroup(main, false); err == nil || protocol.AsError(err).Code != protocol.CodeGroupCloseRequired {
		t.Fatalf("closing the main checkout alone: %v, want %s", err, protocol.CodeGroupCloseRequired)
	}
	for _, c := range []struct {
		w     *Workspace
		group bool
		want  string
	}{{main, true, "[wt]"}, {wt, false, "[]"}, {wt, true, "[main]"}, {other, true, "[]"}} {
		g, err := b.m.CloseGroup(c.w, c.group)
		var labels []string
		for _, x := range g {
			labels = append(labels, x.label)
		}
		if got := fmt.Sprint(labels); err != nil || got != c.want {
			t.Errorf("CloseGroup(%s, %v) = %s, %v; want %s", c.w.label, c.group, got, err, c.want)
		}
	}
}

// TestOps_Create: the steps of the calls that start a pane around the
// start itself: the folder and place they choose, the split's room, and
// the focus, events and effects once the pane runs.
func TestOps_Create(t *testing.T) {
	m := opsModel(t)
	env := fakeEnv{folders: map[string]string{"w2:p1": "/srv"}}
	if _, err := m.WorkspaceCwd(env, &protocol.WorkspaceCreateParams{SourceWorkspaceID: protocol.Ptr("w9")}); err == nil || protocol.AsError(err).Code != protocol.CodeWorkspaceNotFound {
		t.Errorf("a missing source workspace: %v", err)
	}
	if cwd, _ := m.WorkspaceCwd(env, &protocol.WorkspaceCreateParams{SourceWorkspaceID: protocol.Ptr("w2")}); cwd != "/srv" {
		t.Errorf("following w2 (its pane in /srv): %q", cwd)
	}
	if cwd, _ := m.WorkspaceCwd(env, &protocol.WorkspaceCreateParams{}); cwd != "/" {
		t.Errorf("no source: %q, want the focused workspace's /", cwd)
	}
	if _, _, err := New(m.area).TabPlace(env, &protocol.TabCreateParams{}); err == nil || protocol.AsError(err).Code != protocol.CodeNoActiveWorkspace {
		t.Errorf("a tab with no workspace: %v", err)
	}
	if w, cwd, err := m.TabPlace(env, &protocol.TabCreateParams{WorkspaceID: protocol.Ptr("w2")}); err != nil || w.id != "w2" || cwd != "/srv" {
		t.Errorf("a tab in w2: %v %q %v", w, cwd, err)
	}
	setup := m.Begin()
	setup.SetCwd(m.Pane("w1:p1"), "/home/a", "")
	setup.SetCwd(m.Pane("w1:p2"), "/home/b", "")
	setup.Commit()
	if cwd := m.SplitCwd(env, m.Pane("w1:p1")); cwd != "/home/a" {
		t.Errorf("split from w1:p1 (started in /home/a, no foreground folder): %q", cwd)
	}
	if cwd := m.SplitCwd(env, m.Pane("w2:p1")); cwd != "/srv" {
		t.Errorf("split from w2:p1 (its foreground in /srv): %q", cwd)
	}

	before := dump(m)
	tx := m.Begin()
	src := m.Pane("w1:p2")
	tx.FocusInTab(src.tab, src.termID, true)
	st := starter()
	prm := &protocol.PaneSplitParams{Direction: "down", Focus: true, RightClick: "pane"}
	pl, err := tx.SplitPane(env, prm, src, st.Starts)
	at := pl.Slots[0]
	if err != nil || len(pl.Slots) != 1 || src.tab.zoomed || at.Rect != m.RectOf(src.tab, "term_new1") || at.Rect.H >= m.area.H || at.Pane.cwd != "/home/b" {
		t.Errorf("SplitPane: %v, zoomed %v, rect %v, %+v", err, src.tab.zoomed, at.Rect, at.Pane)
	}
	if got := outLine(pl.Out); got != "|, arrange w1:t1" {
		t.Errorf("SplitPane: %s", got)
	}
	res, out, _ := tx.SplitDone(env, prm, at.Pane)
	if got := gist(res.Pane.PaneID, m.FocusedPane().id) + " / " + outLine(out); got != "w1:p4 w1:p4 / pane_created w1:p4, |, rightclick w1:p4=pane" {
		t.Errorf("SplitDone: %s", got)
	}
	tx.Discard()
	if dump(m) != before {
		t.Errorf("a discarded split left a change")
	}

	tx = m.Begin()
	wprm := &protocol.WorkspaceCreateParams{Focus: true, Label: protocol.Ptr("new")}
	pl, err = tx.CreateWorkspace(env, wprm, st.Starts)
	if got := gist(err, pl.Pane().id, pl.Pane().termID, pl.Pane().cwd, pl.Slots[0].Rect == m.area) + " / " + outLine(pl.Out); got != "<nil> w3:p1 term_new2 / true / |, start w3, start w3:t1" {
		t.Errorf("CreateWorkspace: %s", got)
	}
	wres, wout, _ := tx.WorkspaceMade(env, wprm, pl.Pane())
	if got := gist(wres.Workspace.WorkspaceID, wres.Workspace.Label, wres.Tab.TabID, wres.RootPane.PaneID, m.focused.id) + " / " + outLine(wout); got != "w3 new w3:t1 w3:p1 w3 / workspace_created w3, tab_created w3:t1, pane_created w3:p1, |" {
		t.Errorf("WorkspaceMade: %s", got)
	}
	tprm := &protocol.TabCreateParams{WorkspaceID: protocol.Ptr("w1"), Cwd: protocol.Ptr("/etc")}
	pl, err = tx.CreateTab(env, tprm, st.Starts)
	if got := gist(err, pl.Pane().id, pl.Pane().tab.id, pl.Pane().cwd) + " / " + outLine(pl.Out); got != "<nil> w1:p4 w1:t3 /etc / |, start w1:t3" {
		t.Errorf("CreateTab: %s", got)
	}
	tres, tout, _ := tx.TabMade(env, tprm, pl.Pane())
	if got := gist(tres.Tab.TabID, tres.RootPane.PaneID, m.focused.id) + " / " + outLine(tout); got != "w1:t3 w1:p4 w3 / tab_created w1:t3, pane_created w1:p4, workspace_updated w1, |" {
		t.Errorf("TabMade: %s", got)
	}
	tx.Commit()
	check(t, m, "made")

	// A folder that fails its check, or a workspace that is not there,
	// writes nothing and takes no terminal id.
	before = dump(m)
	tx = m.Begin()
	for name, op := range map[string]func() error{
		"workspace in a bad folder": func() error {
			_, err := tx.CreateWorkspace(env, &protocol.WorkspaceCreateParams{Cwd: protocol.Ptr("/bad")}, st.Starts)
			return err
		},
		"tab in a missing workspace": func() error {
			_, err := tx.CreateTab(env, &protocol.TabCreateParams{WorkspaceID: protocol.Ptr("w9")}, st.Starts)
			return err
		},
		"split into a bad folder": func() error {
			_, err := tx.SplitPane(env, &protocol.PaneSplitParams{Direction: "right", Cwd: protocol.Ptr("/bad")}, m.Pane("w1:p1"), st.Starts)
			return err
		},
	} {
		if err := op(); err == nil || tx.Changed() || dump(m) != before {
			t.Errorf("%s: %v, and it wrote %v", name, err, tx.Changed())
		} else if code := protocol.AsError(err).Code; code != "invalid_cwd" && code != protocol.CodeWorkspaceNotFound {
			t.Errorf("%s: %v, want the folder's or the workspace's error", name, err)
		}
	}
	tx.Discard()
	if st.n != 3 {
		t.Errorf("%d terminal ids taken, want the 3 of the panes placed", st.n)
	}
}

// starts is a Starts whose folder check refuses /bad (a folder asked
// for, else the fallback), whose program check refuses "nope", and
// whose terminal ids count: term_new1, term_new2, …
type starts struct {
	Starts
	n int
}

func starter() *starts {
	st := &starts{}
	st.Starts = Starts{
		Cwd: func(requested *string, fallback string) (string, error) {
			cwd := fallback
			if requested != nil && *requested != "" {
				cwd = *requested
			}
			if cwd == "/bad" {
				return "", protocol.Errorf("invalid_cwd", "no folder %s", cwd)
			}
			return cwd, nil
		},
		Argv: func(command []string) ([]string, error) {
			if len(command) > 0 && command[0] == "nope" {
				return nil, protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start nope")
			}
			return command, nil
		},
		TermID: func() string { st.n++; return fmt.Sprintf("term_new%d", st.n) },
	}
	return st
}

// TestOps_LayoutApply: where layout.apply builds, the label its tab takes,
// and what it announces once its panes run.
func TestOps_LayoutApply(t *testing.T) {
	m := opsModel(t)
	env := fakeEnv{}
	for _, c := range []struct {
		prm  protocol.LayoutApplyParams
		want string
	}{
		{protocol.LayoutApplyParams{TabID: protocol.Ptr("w1:t2"), WorkspaceID: protocol.Ptr("w2")}, "invalid_target"},
		{protocol.LayoutApplyParams{TabID: protocol.Ptr("w1:t9")}, protocol.CodeTabNotFound},
		{protocol.LayoutApplyParams{WorkspaceID: protocol.Ptr("w9")}, protocol.CodeWorkspaceNotFound},
	} {
		if _, _, err := m.ApplyTarget(&c.prm); err == nil || protocol.AsError(err).Code != c.want {
			t.Errorf("ApplyTarget(%+v): %v, want %s", c.prm, err, c.want)
		}
	}
	if _, _, err := New(m.area).ApplyTarget(&protocol.LayoutApplyParams{}); err == nil || protocol.AsError(err).Code != protocol.CodeNoActiveWorkspace {
		t.Errorf("ApplyTarget with no workspace: %v", err)
	}
	w, replaced, err := m.ApplyTarget(&protocol.LayoutApplyParams{TabID: protocol.Ptr("w1:t1")})
	if err != nil || w.id != "w1" || replaced.id != "w1:t1" {
		t.Fatalf("ApplyTarget(tab w1:t1): %v %v %v", w, replaced, err)
	}
	// A pane whose folder or program fails its check fails the call before
	// anything is written or any terminal id is taken.
	st := starter()
	before := dump(m)
	tx := m.Begin()
	for _, js := range []string{
		`{"root":{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane"},"second":{"type":"pane","cwd":"/bad"}}}`,
		`{"root":{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane","command":["nope"]},"second":{"type":"pane"}}}`,
	} {
		if _, _, err := tx.LayoutApply(params[*protocol.LayoutApplyParams](t, "layout.apply", js), st.Starts); err == nil || tx.Changed() || dump(m) != before || st.n != 0 {
			t.Errorf("%s: %v; wrote %v, took %d terminal ids", js, err, tx.Changed(), st.n)
		}
	}
	tx.Discard()

	tx = m.Begin()
	tx.SetTabLabel(replaced, "main")
	prm := params[*protocol.LayoutApplyParams](t, "layout.apply", `{"tab_id":"w1:t1","root":{"type":"split","direction":"down","ratio":0.3,`+
		`"first":{"type":"pane","label":"top","command":["vim"]},"second":{"type":"pane","cwd":"/etc","env":{"A":"1"}}}}`)
	pl, gone, err := tx.LayoutApply(prm, st.Starts)
	if err != nil || gone != replaced || len(pl.Slots) != 2 {
		t.Fatalf("LayoutApply: %v %v %d slots", err, gone, len(pl.Slots))
	}
	nt := pl.Pane().tab
	a, b := pl.Slots[0], pl.Slots[1]
	if got := gist(nt.id, nt.label, nt.root, nt.focused, a.Pane.id, a.Pane.label, a.Pane.command, a.Pane.cwd, b.Pane.id, b.Pane.cwd, b.Env, a.Rect.H < b.Rect.H) + " / " + outLine(pl.Out); got != "w1:t3 main (term_new1 down 0.30 term_new2) term_new1 w1:p4 top [vim] / w1:p5 /etc map[A:1] true / |, start w1:t3" {
		t.Errorf("LayoutApply: %s", got)
	}
	res, out, _ := tx.ApplyDone(env, prm, nt, gone)
	d := res.Layout
	if got := gist(m.focused.active.id, len(m.Workspace("w1").tabs), d.TabID, *d.Root.First.PaneID, *d.Root.Second.PaneID) + " / " + outLine(out); got != "w1:t3 2 w1:t3 w1:p4 w1:p5 / tab_created w1:t3, pane_created w1:p4, pane_created w1:p5, pane_closed w1:p1, pane_closed w1:p2, tab_closed w1:t1, |, "+
		"arrange w1:t3, stop w1:p1, stop w1:p2, retire w1:t1" {
		t.Errorf("ApplyDone replacing the focused tab: %s", got)
	}
	tx.Commit()
	check(t, m, "applied")
}

// TestOps_ZeroParams: an operation handed params that skipped their
// decoder's check answers or fails with an error; it never panics and a
// failure changes nothing.
func TestOps_ZeroParams(t *testing.T) {
	env := fakeEnv{}
	ops := map[string]func(tx *Tx) error{
		"focus_direction": func(tx *Tx) error { _, _, err := tx.FocusDirection(env, &protocol.PaneDirectionParams{}); return err },
		"resize":          func(tx *Tx) error { _, _, err := tx.Resize(env, &protocol.PaneResizeParams{}); return err },
		"swap":            func(tx *Tx) error { _, _, err := tx.Swap(env, &protocol.PaneSwapParams{}); return err },
		"zoom":            func(tx *Tx) error { _, _, err := tx.Zoom(env, &protocol.PaneZoomParams{}); return err },
		"split_ratio": func(tx *Tx) error {
			_, _, err := tx.SetSplitRatio(env, &protocol.LayoutSetSplitRatioParams{})
			return err
		},
		"select":         func(tx *Tx) error { _, _, err := tx.SelectLayout(env, &protocol.LayoutSelectParams{}); return err },
		"input":          func(tx *Tx) error { _, _, err := tx.SetInput(env, &protocol.PaneInputSetParams{}); return err },
		"move":           func(tx *Tx) error { _, _, err := tx.MovePane(env, &protocol.PaneMoveParams{}); return err },
		"workspace.move": func(tx *Tx) error { _, _, err := tx.MoveWorkspace(env, &protocol.WorkspaceMoveParams{}); return err },
		"move_block": func(tx *Tx) error {
			_, _, err := tx.MoveWorkspaceBlock(env, &protocol.WorkspaceMoveBlockParams{})
			return err
		},
		"tab.move":      func(tx *Tx) error { _, _, err := tx.MoveTabTo(env, &protocol.TabMoveParams{}); return err },
		"apply_target":  func(tx *Tx) error { _, _, err := tx.m.ApplyTarget(&protocol.LayoutApplyParams{}); return err },
		"tab_place":     func(tx *Tx) error { _, _, err := tx.m.TabPlace(env, &protocol.TabCreateParams{}); return err },
		"workspace_cwd": func(tx *Tx) error { _, err := tx.m.WorkspaceCwd(env, &protocol.WorkspaceCreateParams{}); return err },
		"layout.apply": func(tx *Tx) error {
			_, _, err := tx.LayoutApply(&protocol.LayoutApplyParams{}, starter().Starts)
			return err
		},
		"layout.apply node": func(tx *Tx) error {
			_, _, err := tx.LayoutApply(&protocol.LayoutApplyParams{Root: &protocol.LayoutNode{Type: "row", First: &protocol.LayoutNode{Type: "pane"}, Second: &protocol.LayoutNode{Type: "pane"}}}, starter().Starts)
			if err == nil {
				return fmt.Errorf("a node that is neither pane nor split was taken")
			}
			return nil
		},
		"layout.apply split": func(tx *Tx) error {
			_, _, err := tx.LayoutApply(&protocol.LayoutApplyParams{Root: &protocol.LayoutNode{Type: "split"}}, starter().Starts)
			return err
		},
		"workspace.create": func(tx *Tx) error {
			_, err := tx.CreateWorkspace(env, &protocol.WorkspaceCreateParams{}, starter().Starts)
			return err
		},
		"tab.create": func(tx *Tx) error {
			_, err := tx.CreateTab(env, &protocol.TabCreateParams{}, starter().Starts)
			return err
		},
		"pane.split": func(tx *Tx) error {
			_, err := tx.SplitPane(env, &protocol.PaneSplitParams{}, tx.m.Pane("w1:p1"), starter().Starts)
			return err
		},
		"open":           func(tx *Tx) error { _, err := tx.OpenAt(Opening{}, Program{}, starter().Starts); return err },
		"open_checkout":  func(tx *Tx) error { _, _, err := tx.OpenCheckout(env, Checkout{}, starter().Starts); return err },
		"close_checkout": func(tx *Tx) error { _, _, err := tx.CloseCheckout(env, "", protocol.WorktreeInfo{}, false); return err },
		"focus_owned":    func(tx *Tx) error { _, _, err := tx.FocusOwned(env, "", nil); return err },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			m := opsModel(t)
			before := dump(m)
			tx := m.Begin()
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panicked: %v", r)
					}
				}()
				err = op(tx)
			}()
			if err != nil {
				if tx.Changed() || dump(m) != before {
					t.Errorf("failed with %v and changed the model", err)
				}
				tx.Discard()
				return
			}
			tx.Commit()
			check(t, m, name)
		})
	}
}

// TestDescribe: a pane is described in the folder it is in now, else the
// one it started in, with its command and label.
func TestDescribe(t *testing.T) {
	m := opsModel(t)
	tx := m.Begin()
	p1, p2 := m.Pane("w1:p1"), m.Pane("w1:p2")
	tx.SetCwd(p1, "/start", "")
	tx.SetCwd(p2, "/start2", "")
	tx.SetPaneLabel(p2, "logs")
	tx.Commit()
	d := m.Describe(fakeEnv{folders: map[string]string{"w1:p1": "/now"}}, p1.tab)
	first, second := d.Root.First, d.Root.Second
	if got := gist(*first.Cwd, first.Label == nil, *second.Cwd, *second.Label, d.WorkspaceID, d.Zoomed); got != "/now true /start2 logs w1 false" {
		t.Errorf("Describe: %s", got)
	}
}
