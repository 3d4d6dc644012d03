package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// restore rebuilds a saved session as the session starts: the model takes
// the saved topology, and each pane gets a new shell in the folder it was
// last seen in (or, when that is gone, the one it was started in, its
// workspace's, else home). A workspace or tab the
// file describes badly is left out, and so is a pane whose shell cannot
// start (a tab or workspace left empty goes with it); each is logged as
// an error and counted as failed. It reports whether anything was left
// out, so the file is kept aside before the first save replaces it.
//
// It is the session's first message, so every call waits behind it in
// the mailbox and is answered from the whole restored session: a list
// read while thousands of workspaces come back is never a short one. The
// terminals start a few at once (panes.Spawner.StartRestored), not one
// after another: starting a shell is most of a restore's time.
func (s *Session) restore(ctx actor.Context, saved *model.Saved) (lost bool) {
	restored, skipped, err := s.tx.Restore(saved, s.newTermID)
	if err != nil {
		s.opts.Log.Error("session not restored", "err", err)
		return true
	}
	for _, sk := range skipped {
		s.opts.Log.Error("saved workspace not restored", "workspace", sk.Workspace, "name", sk.Name, "tab", sk.Tab, "err", sk.Err)
	}
	starts := make([]terminalStart, 0, len(restored))
	var failed []*model.Pane
	var shell []string
	var shellErr error
	if len(restored) > 0 {
		shell, shellErr = s.spawner.Argv(nil) // once: every restored pane runs the shell
	}
	for _, r := range restored {
		p := &paneRec{Pane: r.Pane}
		adopted := s.spawner.Adopting(p.TermID())
		if !adopted { // a new shell, in the folder the pane was last seen in
			cwd, why := panes.RestoreCwd(p.LiveCwd(), p.Cwd(), p.WS().Cwd(), s.home)
			s.tx.SetCwd(p.Pane, cwd, "")
			if why != "" {
				s.opts.Log.Warn("saved pane cwd is gone; using another", "pane", p.ID(), "cwd", cwd, "why", why)
				s.tx.SetRestoreError(p.Pane, why)
			}
		}
		if shellErr != nil {
			s.opts.Log.Error("pane not restored", "pane", p.ID(), "err", shellErr)
			failed = append(failed, r.Pane)
			continue
		}
		// An agent about to be resumed redraws its own conversation, which
		// replaces the pane's kept lines (as in Herdr).
		ref := r.Saved.AgentSession
		resume := ref != nil && s.cfg.Session.ResumeAgentsOnRestore && !adopted // an adopted agent is still running
		resuming := resume && agents.ResumeArgv(ref) != nil
		setup := paneSetup{cwd: p.Cwd(), kept: r.Saved.History, restoreKept: !adopted && !resuming}
		spec := s.spawner.Prepare(s.spawner.Spec(s.paneAt(p, setup, s.m.RectOf(p.Tab(), p.TermID())), shell))
		starts = append(starts, terminalStart{p: p, ref: ref, resume: resume, Start: panes.Start{Spec: spec}})
	}
	// The terminals start a few at once, again in home for those that
	// cannot start in their folder (panes.Spawner.StartRestored).
	all := make([]*panes.Start, len(starts))
	for i := range starts {
		all[i] = &starts[i].Start
	}
	for _, m := range s.spawner.StartRestored(all, s.home) {
		p := starts[m.At].p
		s.opts.Log.Warn("restored pane started in home", "pane", p.ID(), "cwd", m.Cwd, "err", m.Err)
		s.tx.SetCwd(p.Pane, s.home, "")
		s.tx.SetRestoreError(p.Pane, m.Why)
	}
	// A restore a panic breaks from here did not happen: what started and
	// has no actor yet ends with it (an actor that has one is stopped).
	s.tx.undo(unstart{starts})
	for i := range starts {
		st := &starts[i]
		p := st.p
		if st.Err != nil {
			st.Err = protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", shell[0], st.Err)
		} else {
			st.Err = s.spawnActor(ctx, p, st.Props, st.Abort) // aborts what it cannot spawn
		}
		if st.Err != nil {
			s.opts.Log.Error("pane not restored", "pane", p.ID(), "err", st.Err)
			failed = append(failed, p.Pane)
			continue
		}
		if st.ref != nil {
			p.shown.Session, p.restored = st.ref, st.ref // kept for the next save
		}
		if st.resume { // the agents actor types it once a client attaches
			s.tx.do(tell{s.opts.Agents, &agents.Resume{TermID: p.TermID(), Session: *st.ref}})
		}
		s.putTerm(p)
	}
	for _, p := range failed {
		s.tx.Forget(p)
		if s.tx.Detach(p) && s.tx.DropTab(p.Tab()) {
			s.tx.DropWorkspace(p.WS())
		}
	}
	for _, w := range s.m.Workspaces() {
		s.tx.SetAuto(w, deriveLabel(w.Cwd(), s.home))
		s.tx.start(w)
		for _, t := range w.Tabs() {
			s.tx.start(t)
		}
	}
	// failed counts what the file held and this start lost: panes, and
	// workspaces or tabs left out whole.
	s.opts.Log.Info("session restored", "workspaces", len(s.m.Workspaces()), "panes", len(restored)-len(failed), "failed", len(failed)+len(skipped))
	return len(failed)+len(skipped) > 0
}

// terminalStart is one restored pane's terminal: what it starts with, and
// what starting it gave.
type terminalStart struct {
	p           *paneRec
	ref         *protocol.AgentSessionInfo // the agent session it had
	resume      bool                       // the agent is typed again once a client attaches
	panes.Start                            // its spec, and what starting it gave
}
