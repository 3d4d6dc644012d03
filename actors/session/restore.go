package session

import (
	"os"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/session/model"
)

// restore rebuilds a saved session as the session starts: the model takes
// the saved topology, and each pane gets a new shell in the folder it was
// last seen in (or, when that is gone, the one it was started in, its
// workspace's, else home). A workspace or tab the
// file describes badly is left out, and so is a pane whose shell cannot
// start (a tab or workspace left empty goes with it); each is logged as
// an error and counted as failed. It reports whether anything was left
// out, so the file is kept aside before the first save replaces it.
func (s *Session) restore(ctx actor.Context, saved *model.Saved) (lost bool) {
	panes, skipped, err := s.tx.Restore(saved, s.newTermID)
	if err != nil {
		s.opts.Log.Error("session not restored", "err", err)
		return true
	}
	for _, sk := range skipped {
		s.opts.Log.Error("saved workspace not restored", "workspace", sk.Workspace, "name", sk.Name, "tab", sk.Tab, "err", sk.Err)
	}
	var failed []*model.Pane
	for _, r := range panes {
		p := &paneRec{Pane: r.Pane}
		_, adopted := s.opts.Adopt[p.TermID]
		if !adopted { // a new shell, in the folder the pane was last seen in
			s.tx.SetCwd(p.Pane, s.restoreCwd(p.LiveCwd, p.Cwd, p.WS.Cwd), "")
		}
		// An agent about to be resumed redraws its own conversation, which
		// replaces the pane's kept lines (as in Herdr).
		ref := r.Saved.AgentSession
		resume := ref != nil && s.cfg.Session.ResumeAgentsOnRestore && !adopted // an adopted agent is still running
		resuming := resume && agents.ResumeArgv(ref) != nil
		setup := paneSetup{cwd: p.Cwd, kept: r.Saved.History, restoreKept: !adopted && !resuming}
		if err := s.spawnPane(ctx, p, setup, s.m.RectOf(p.Tab, p.TermID)); err != nil {
			s.opts.Log.Error("pane not restored", "pane", p.ID, "err", err)
			failed = append(failed, r.Pane)
			continue
		}
		s.tx.OnDiscard(func() { ctx.Stop(p.pid) }) // a restore a panic broke did not happen
		if ref != nil {
			p.shown.Session, p.restored = ref, ref // kept for the next save
		}
		if resume { // the agents actor types it once a client attaches
			ctx.Send(s.opts.Agents, &agents.Resume{TermID: p.TermID, Session: *ref})
		}
		s.terms[p.TermID] = p
		s.tx.OnDiscard(func() { delete(s.terms, p.TermID) })
	}
	for _, p := range failed {
		s.tx.Forget(p)
		if s.tx.Detach(p) && s.tx.DropTab(p.Tab) {
			s.tx.DropWorkspace(p.WS)
		}
	}
	for _, w := range s.m.Workspaces {
		s.tx.SetAuto(w, deriveLabel(w.Cwd, s.home))
		s.born(w)
		for _, t := range w.Tabs {
			s.born(t)
		}
	}
	// failed counts what the file held and this start lost: panes, and
	// workspaces or tabs left out whole.
	s.opts.Log.Info("session restored", "workspaces", len(s.m.Workspaces), "panes", len(panes)-len(failed), "failed", len(failed)+len(skipped))
	return len(failed)+len(skipped) > 0
}

// restoreCwd is a restored pane's working directory: the folder it was
// last seen in if that still exists, else the one it was started in, else
// its workspace's, else home, else /.
func (s *Session) restoreCwd(live, created, workspace string) string {
	saved := live
	if saved == "" {
		saved = created
	}
	for _, dir := range []string{saved, created, workspace, s.home} {
		if fi, err := os.Stat(dir); dir != "" && err == nil && fi.IsDir() {
			if dir != saved {
				s.opts.Log.Warn("saved pane cwd is gone; using another", "saved", saved, "cwd", dir)
			}
			return dir
		}
	}
	return "/"
}
