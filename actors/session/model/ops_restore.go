package model

// A restore runs in three steps around its terminals' starts: Restore
// (restore.go) builds the saved topology, the panes supervisor starts the
// terminals (panes.Spawner.Restore), and RestoreDone takes in what that
// gave.

// RestoreDone finishes a restore once its terminals started: each pane
// records the folder its new shell started in and why it is not the saved
// one; a pane that did not start is left out, and a tab or workspace it
// emptied; every workspace takes its auto label, and the actors of every
// workspace and tab start. A restore publishes no event: nothing was
// there to change.
func (tx *Tx) RestoreDone(env Env, restored []Restored) Out {
	var out Out
	for _, r := range restored {
		p := r.Pane
		if r.Cwd != "" {
			tx.SetCwd(p, r.Cwd, "")
		}
		if r.Why != "" {
			tx.SetRestoreError(p, r.Why)
		}
	}
	for _, r := range restored {
		if p := r.Pane; r.Failed {
			tx.Forget(p)
			if tx.Detach(p) && tx.DropTab(p.tab) {
				tx.DropWorkspace(p.ws)
			}
		}
	}
	for _, w := range tx.m.workspaces {
		tx.SetAuto(w, env.AutoLabel(w.cwd))
		out.do(Start{w})
		for _, t := range w.tabs {
			out.do(Start{t})
		}
	}
	return out
}
