package model

import "testing"

// TestOps_RestoreDone: once a restore's terminals started, each pane keeps
// the folder its shell started in and why it is not the saved one; a
// pane that did not start goes, and the tab or workspace it emptied; every
// workspace takes its auto label and every workspace's and tab's actor
// starts. Nothing is announced. A discard undoes all of it.
func TestOps_RestoreDone(t *testing.T) {
	m := opsModel(t)
	tx := m.Begin()
	tx.SetCwd(m.Pane("w1:p1"), "/created", "/live")
	tx.Commit()
	restored := []Restored{
		{Pane: m.Pane("w1:p1"), Cwd: "/created", Why: "the saved working directory /live no longer exists"},
		{Pane: m.Pane("w1:p2"), Failed: true},
		{Pane: m.Pane("w1:p3")}, // adopted: goes on where it was
		{Pane: m.Pane("w2:p1"), Cwd: "/home", Failed: true},
	}
	before := dump(m)
	tx = m.Begin()
	tx.RestoreDone(fakeEnv{}, restored)
	tx.Discard()
	if dump(m) != before {
		t.Fatalf("a discarded RestoreDone left a change:\n%s\nwas\n%s", dump(m), before)
	}

	tx = m.Begin()
	out := tx.RestoreDone(fakeEnv{}, restored)
	tx.Commit()
	check(t, m, "restored")
	p1 := m.Pane("w1:p1")
	w1 := m.Workspace("w1")
	got := gist(len(m.workspaces), m.focused.id, w1.auto, w1.tabs[0].root.Leaves(), p1.cwd, p1.liveCwd == "", p1.restoreError != "", m.Pane("w1:p2") == nil, m.Pane("w1:p3").restoreError == "") + " / " + outLine(out)
	if want := "1 w1 auto:/ [term_1] /created true true true true / |, start w1, start w1:t1, start w1:t2"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
