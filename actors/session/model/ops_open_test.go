package model

import (
	"errors"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestOps_Open: where an owner's pane opens (a split of the named pane,
// of a workspace's focused pane, zoomed, a tab, an overlay), what placing
// it returns, and the focus, events and effects once it runs; an opening
// whose target is gone fails with its code and writes nothing.
func TestOps_Open(t *testing.T) {
	env := fakeEnv{}
	ptr := protocol.Ptr[string]
	cases := []struct {
		name string
		o    Opening
		want string // the pane and its tab; placed | its out; opened | its out; the focused pane, zoom
	}{
		{"split of a pane", Opening{Where: OpenSplit, PaneID: ptr("w1:p2")},
			"w1:p4 w1:t1 / |, arrange w1:t1 / pane_created w1:p4, | / w1:p1 false"},
		{"split of a workspace's focused pane, focused", Opening{Where: OpenSplit, WorkspaceID: ptr("w2"), Direction: ptr("down"), Focus: true},
			"w2:p2 w2:t1 / |, arrange w2:t1 / pane_created w2:p2, | / w2:p2 false"},
		{"zoomed split", Opening{Where: OpenZoomed, PaneID: ptr("w2:p1")},
			"w2:p2 w2:t1 / |, arrange w2:t1 / pane_created w2:p2, |, arrange w2:t1 / w2:p2 true"},
		{"tab", Opening{Where: OpenTab, WorkspaceID: ptr("w2")},
			"w2:p2 w2:t2 / |, start w2:t2 / tab_created w2:t2, workspace_updated w2, pane_created w2:p2, | / w1:p1 false"},
		{"tab of the focused workspace", Opening{Where: OpenTab, Focus: true},
			"w1:p4 w1:t3 / |, start w1:t3 / tab_created w1:t3, workspace_updated w1, pane_created w1:p4, | / w1:p4 false"},
		{"overlay", Opening{Where: OpenOverlay},
			"w1:p4 w1:t1 / |, arrange w1:t1 / pane_created w1:p4, |, arrange w1:t1 / w1:p4 true"},
		{"a pane that is gone", Opening{Where: OpenSplit, PaneID: ptr("w1:p9")}, protocol.CodePaneNotFound},
		{"a workspace that is gone", Opening{Where: OpenZoomed, WorkspaceID: ptr("w9")}, protocol.CodeWorkspaceNotFound},
		{"a tab of a workspace that is gone", Opening{Where: OpenTab, WorkspaceID: ptr("w9")}, protocol.CodeWorkspaceNotFound},
		{"a split sideways", Opening{Where: OpenSplit, Direction: ptr("sideways")}, protocol.CodeInvalidParams},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := opsModel(t)
			before := dump(m)
			st := starter()
			tx := m.Begin()
			pl, err := tx.OpenAt(c.o, Program{Cwd: "/srv", Label: "plugin", Command: []string{"tool"}, Env: map[string]string{"K": "v"}}, st.Starts)
			if err != nil {
				if tx.Changed() || dump(m) != before || st.n != 0 || len(pl.Slots) > 0 {
					t.Errorf("a failed opening wrote something or took a terminal id")
				}
				tx.Discard()
				if got := protocol.AsError(err).Code; got != c.want {
					t.Fatalf("error %v, want code %s", err, c.want)
				}
				return
			}
			p := pl.Pane()
			if len(pl.Slots) != 1 || p.termID != "term_new1" || p.cwd != "/srv" || p.label != "plugin" || p.command[0] != "tool" || pl.Slots[0].Env["K"] != "v" {
				t.Errorf("placed %+v", pl.Slots)
			}
			info, out, _ := tx.Opened(env, c.o, p)
			tx.Commit()
			check(t, m, c.name)
			if info.PaneID != p.id {
				t.Errorf("answered %s, want the pane opened", info.PaneID)
			}
			got := gist(p.id, p.tab.id) + " / " + outLine(pl.Out) + " / " + outLine(out) + " / " + gist(m.FocusedPane().id, m.FocusedPane().tab.zoomed)
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
	if _, err := New(opsModel(t).area).Begin().OpenAt(Opening{Where: OpenOverlay}, Program{}, starter().Starts); err == nil || protocol.AsError(err).Code != protocol.CodeNoActivePane {
		t.Errorf("an overlay with no pane: %v, want %s", err, protocol.CodeNoActivePane)
	}
}

// TestOps_OverlayGivesTheFocusBack: an overlay opened over a zoomed tab
// keeps the pane it covered in the model; closing it gives that pane the
// focus and the tab its zoom back. A discarded opening leaves no record.
func TestOps_OverlayGivesTheFocusBack(t *testing.T) {
	env := fakeEnv{}
	m := opsModel(t)
	tx := m.Begin()
	w1 := m.Workspace("w1")
	tx.FocusPane(m.Pane("w1:p2"))
	tx.FocusInTab(w1.tabs[0], "term_2", true)
	tx.Commit()

	before := dump(m)
	tx = m.Begin()
	pl, _ := tx.OpenAt(Opening{Where: OpenOverlay}, Program{}, starter().Starts)
	tx.Opened(env, Opening{Where: OpenOverlay}, pl.Pane())
	tx.Discard()
	if dump(m) != before {
		t.Fatalf("a discarded overlay left a change:\n%s\nwas\n%s", dump(m), before)
	}

	tx = m.Begin()
	pl, _ = tx.OpenAt(Opening{Where: OpenOverlay}, Program{}, starter().Starts)
	over := pl.Pane()
	tx.Opened(env, Opening{Where: OpenOverlay}, over)
	tx.Commit()
	if got := gist(over.covers, over.coverZoomed, m.FocusedPane().id, w1.tabs[0].zoomed); got != "term_2 true w1:p4 true" {
		t.Fatalf("the overlay open: %s", got)
	}
	tx = m.Begin()
	info, out, err := tx.CloseOwned(env, over.termID, nil)
	tx.Commit()
	check(t, m, "overlay closed")
	if got := gist(err, info.PaneID, m.FocusedPane().id, w1.tabs[0].zoomed) + " / " + outLine(out); got != "<nil> w1:p4 w1:p2 true / pane_closed w1:p4, |, stop w1:p4, arrange w1:t1" {
		t.Errorf("closing the overlay: %s", got)
	}
}

// TestOps_Owned: an owner's pane is focused or closed by its terminal; one
// gone answers the owner's error (else pane_not_found) and writes nothing.
func TestOps_Owned(t *testing.T) {
	env := fakeEnv{}
	m := opsModel(t)
	before := dump(m)
	tx := m.Begin()
	mine := errors.New("the plugin's pane is gone")
	if _, _, err := tx.FocusOwned(env, "term_9", mine); err != mine {
		t.Errorf("focusing a gone pane: %v, want the owner's error", err)
	}
	if _, _, err := tx.CloseOwned(env, "term_9", nil); err == nil || protocol.AsError(err).Code != protocol.CodePaneNotFound {
		t.Errorf("closing a gone pane: %v, want pane_not_found", err)
	}
	if tx.Changed() || dump(m) != before {
		t.Fatal("a gone owner's pane wrote something")
	}
	info, out, err := tx.FocusOwned(env, "term_4", nil)
	if got := gist(err, info.PaneID, m.FocusedPane().id) + " / " + outLine(out); got != "<nil> w2:p1 w2:p1 / |" {
		t.Errorf("focus: %s", got)
	}
	info, out, err = tx.CloseOwned(env, "term_4", nil)
	if got := gist(err, info.PaneID, m.Workspace("w2") == nil) + " / " + outLine(out); got != "<nil> w2:p1 true / pane_closed w2:p1, tab_closed w2:t1, workspace_closed w2, |, stop w2:p1, retire w2:t1, retire w2" {
		t.Errorf("close: %s", got)
	}
	tx.Commit()
	check(t, m, "owned")
}
