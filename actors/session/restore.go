package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session/model"
)

// restore rebuilds a saved session as the session starts, in three
// steps: the model takes the saved topology (model.Tx.Restore), the
// panes supervisor's spawner starts every pane's terminal, a new shell
// in the folder it was last seen in or another, a few at once
// (panes.Spawner.Restore), and the model takes in what that gave
// (model.Tx.RestoreDone): a pane whose shell cannot start is left out,
// and a tab or workspace left empty goes with it. A workspace or tab the
// file describes badly is left out too; each is logged as an error and
// counted as failed. It reports whether anything was left out, so the
// file is kept aside before the first save replaces it.
//
// It is the session's first message, so every call waits behind it in
// the mailbox and is answered from the whole restored session: a list
// read while thousands of workspaces come back is never a short one.
func (s *Session) restore(ctx actor.Context, saved *model.Saved) (lost bool) {
	restored, skipped, err := s.tx.Restore(saved, s.starts().TermID)
	if err != nil {
		s.opts.Log.Error("session not restored", "err", err)
		return true
	}
	for _, sk := range skipped {
		s.opts.Log.Error("saved workspace not restored", "workspace", sk.Workspace, "name", sk.Name, "tab", sk.Tab, "err", sk.Err)
	}
	recs := make([]*paneRec, len(restored))
	resume := make([]bool, len(restored))
	ps := make([]panes.Restoring, len(restored))
	for i, r := range restored {
		p := &paneRec{Pane: r.Pane}
		// An agent about to be resumed redraws its own conversation, which
		// replaces the pane's kept lines (as in Herdr); an adopted one is
		// still running.
		ref, adopted := r.Saved.AgentSession, s.spawner.Adopting(p.TermID())
		resume[i] = ref != nil && s.cfg.Session.ResumeAgentsOnRestore && !adopted
		setup := paneSetup{cwd: p.Cwd(), kept: r.Saved.History, restoreKept: !adopted && !(resume[i] && agents.ResumeArgv(ref) != nil)}
		recs[i], ps[i] = p, panes.Restoring{Pane: s.paneAt(p, setup, s.m.RectOf(p.Tab(), p.TermID())), Live: p.LiveCwd(), Workspace: p.WS().Cwd()}
	}
	failed := 0
	for i, st := range s.spawner.Restore(ctx, ps) {
		r, p := &restored[i], recs[i]
		if r.Cwd, r.Why, r.Failed = st.Cwd, st.Why, st.Err != nil; r.Failed {
			failed++
			continue
		}
		s.started(p, st.PID)
		if ref := r.Saved.AgentSession; ref != nil {
			// Kept for the next save; a resume is typed by the agents actor
			// once a client attaches.
			p.RestoreSession(ref)
			if resume[i] {
				s.tx.do(tell{s.opts.Agents, &agents.Resume{TermID: p.TermID(), Session: *ref}})
			}
		}
		s.putTerm(p)
	}
	s.apply(s.tx.RestoreDone(s.env(), restored))
	// failed counts what the file held and this start lost: panes, and
	// workspaces or tabs left out whole.
	s.opts.Log.Info("session restored", "workspaces", len(s.m.Workspaces()), "panes", len(restored)-failed, "failed", failed+len(skipped))
	return failed+len(skipped) > 0
}
