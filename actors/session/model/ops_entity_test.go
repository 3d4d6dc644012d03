package model

import "testing"

// TestOps_EntityChanged: what a workspace's or tab's actor says it holds
// is written, and announced only as the event it names.
func TestOps_EntityChanged(t *testing.T) {
	m := opsModel(t)
	env := fakeEnv{}
	w, tb := m.Workspaces()[0], m.Workspaces()[0].Tabs()[1]
	for _, c := range []struct {
		name, want string
		run        func(tx *Tx) Out
	}{
		{"renamed", "workspace_renamed " + w.ID() + ", |", func(tx *Tx) Out {
			return tx.WorkspaceChanged(env, w, "api", nil, "workspace_renamed")
		}},
		{"metadata", "workspace_metadata_updated " + w.ID() + ", |", func(tx *Tx) Out {
			return tx.WorkspaceChanged(env, w, "", map[string]string{"k": "v"}, "workspace_metadata_updated")
		}},
		{"no event", "|", func(tx *Tx) Out { return tx.WorkspaceChanged(env, w, "quiet", nil, "") }},
		{"tab renamed", "tab_renamed " + tb.ID() + ", |", func(tx *Tx) Out { return tx.TabChanged(env, tb, "logs", "tab_renamed") }},
		{"tab no event", "|", func(tx *Tx) Out { return tx.TabChanged(env, tb, "still", "") }},
	} {
		tx := m.Begin()
		if got := outLine(c.run(tx)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		tx.Commit()
	}
	if w.Label() != "quiet" || w.Tokens()["k"] != "" || tb.Label() != "still" {
		t.Errorf("records not written as told: workspace %q tokens %v, tab %q", w.Label(), w.Tokens(), tb.Label())
	}
}
