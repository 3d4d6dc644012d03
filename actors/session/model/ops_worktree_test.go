package model

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestOps_Checkouts: a new checkout gets a workspace of its own in its
// folder, its provenance set, grouped right after its repository's last
// workspace, the source joining the group when it had no place in one;
// opening it again reuses that workspace; removing it closes it. A source
// that closed while git ran fails, naming what git did, and writes
// nothing.
func TestOps_Checkouts(t *testing.T) {
	env := fakeEnv{}
	m := opsModel(t)
	repo := protocol.WorkspaceWorktreeInfo{RepoKey: "/r/.git", RepoName: "r", RepoRoot: "/r", CheckoutPath: "/r"}
	tree := protocol.WorktreeInfo{Path: "/r-feat", Branch: protocol.Ptr("feat"), IsLinkedWorktree: true}
	st := starter()

	before := dump(m)
	tx := m.Begin()
	for _, c := range []Checkout{{SourceID: "w9", Tree: tree, Created: true}, {SourceID: "w9", Tree: tree}} {
		_, _, err := tx.OpenCheckout(env, c, st.Starts)
		if err == nil || protocol.AsError(err).Code != protocol.CodeWorkspaceNotFound || !strings.Contains(err.Error(), "/r-feat") {
			t.Errorf("a source gone (created %v): %v", c.Created, err)
		}
	}
	if _, _, err := tx.CloseCheckout(env, "w9", tree, false); err == nil || !strings.Contains(err.Error(), "was removed") {
		t.Errorf("removing the checkout of a workspace gone: %v", err)
	}
	if tx.Changed() || dump(m) != before || st.n != 0 {
		t.Fatal("a worktree call whose source is gone wrote something")
	}

	created := Checkout{SourceID: "w1", Source: repo, Tree: tree, Label: protocol.Ptr("feat"), Focus: true, Created: true}
	w, pl, err := tx.OpenCheckout(env, created, st.Starts)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, x := range m.workspaces {
		order = append(order, x.id)
	}
	got := gist(w.id, w.label, pl.Pane().id, pl.Pane().cwd, *m.Workspace("w1").worktree, *w.worktree, order, m.focused.id) + " / " + outLine(pl.Out)
	if want := "w3 feat w3:p1 /r-feat {/r/.git r /r /r false} {/r/.git r /r /r-feat true} [w1 w3 w2] w3 / workspace_updated w1, |, start w3, start w3:t1"; got != want {
		t.Errorf("OpenCheckout:\ngot  %s\nwant %s", got, want)
	}
	res, out, _ := tx.CheckoutOpened(env, created, w, true)
	r := res.(protocol.WorktreeCreated)
	if got := gist(r.Workspace.WorkspaceID, r.Tab.TabID, r.RootPane.PaneID, r.Worktree.Path) + " / " + outLine(out); got != "w3 w3:t1 w3:p1 /r-feat / workspace_created w3, tab_created w3:t1, pane_created w3:p1, worktree_created w3, |" {
		t.Errorf("CheckoutOpened: %s", got)
	}
	tx.Commit()
	check(t, m, "checkout opened")

	// Opened again (worktree.open): the workspace on it is reused.
	tx = m.Begin()
	tx.FocusWorkspace(m.Workspace("w2"))
	open := Checkout{SourceID: "w2", Source: repo, Tree: tree, Focus: true}
	w, pl, err = tx.OpenCheckout(env, open, st.Starts)
	if err != nil || w.id != "w3" || len(pl.Slots)+len(pl.Events)+len(pl.Effects) > 0 || m.focused != w || m.Workspace("w2").worktree != nil {
		t.Fatalf("reopening: %v %v %+v, focused %s", err, w, pl, m.focused.id)
	}
	res, out, _ = tx.CheckoutOpened(env, open, w, false)
	o := res.(protocol.WorktreeOpened)
	if got := gist(o.Workspace.WorkspaceID, o.AlreadyOpen, *o.Worktree.OpenWorkspaceID, o.RootPane.PaneID) + " / " + outLine(out); got != "w3 true w3 w3:p1 / worktree_opened w3, |" {
		t.Errorf("reopened: %s", got)
	}
	tx.Commit()

	tx = m.Begin()
	rm, out, err := tx.CloseCheckout(env, "w3", tree, true)
	if got := gist(err, rm.WorkspaceID, rm.Path, rm.Forced, m.Workspace("w3") == nil) + " / " + outLine(out); got != "<nil> w3 /r-feat true true / worktree_removed w3, pane_closed w3:p1, tab_closed w3:t1, workspace_closed w3, |, stop w3:p1, retire w3:t1, retire w3" {
		t.Errorf("CloseCheckout: %s", got)
	}
	tx.Commit()
	check(t, m, "checkout removed")
	if st.n != 1 {
		t.Errorf("%d terminal ids taken, want the new workspace's one", st.n)
	}
}
