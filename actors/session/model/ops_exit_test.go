package model

import "testing"

// A pane that exited is announced, then closed as pane.close closes it:
// for the last pane of a tab too; a broken transaction leaves nothing.
func TestPaneExited_AnnouncedThenClosed(t *testing.T) {
	for _, id := range []string{"w1:p2", "w1:p3", "w2:p1"} {
		closed, exited := opsModel(t), opsModel(t)
		tx := closed.Begin()
		want := outLine(tx.ClosePane(fakeEnv{}, closed.Pane(id)))
		tx.Commit()
		tx = exited.Begin()
		got := outLine(tx.PaneExited(fakeEnv{}, exited.Pane(id)))
		tx.Commit()
		if got != "pane_exited "+id+", "+want {
			t.Errorf("%s exited: %s\nwant pane_exited %s, %s", id, got, id, want)
		}
		check(t, exited, id+" exited")
		if exited.Pane(id) != nil {
			t.Errorf("%s is still there", id)
		}
	}
}
