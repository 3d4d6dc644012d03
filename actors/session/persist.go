package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
)

// The session's part in what is kept on disk (actors/keeper does the
// rest): it tells the keeper when something changed, once until the
// keeper asks back, and answers the keeper's SaveNow with the topology
// (a model.Saved that shares nothing with the model) and its LinesNow
// with the panes there are. It also names each pane's kept lines
// ([advanced] persist_scrollback_lines: history/<key>.lines and .screen,
// the key recorded in the pane's entry of session.json, the pane's across
// restarts, moves and handoffs), because a pane is given its key as it
// starts.

// keeping is what the session told the keeper.
type keeping struct {
	pid            *actor.PID       // nil until started, and without a keeper
	saving, lining bool             // a change told, not yet asked back for
	panes          int              // the number of panes last told
	keys           *keeper.LineKeys // each pane's lines key (nil unless lines are kept)
}

// startKeeping attaches the session to its keeper once the restore is
// done (the restore itself is the file's, not a change to save).
func (s *Session) startKeeping(ctx actor.Context, lossy bool) {
	if s.opts.Keeper == nil {
		return
	}
	s.keep.pid = s.opts.Keeper
	ctx.Send(s.keep.pid, &keeper.Attach{Session: ctx.Self(), KeepOriginal: lossy})
	s.trimAfterChange(ctx)
}

// changed tells the keeper the session file, and the set of panes whose
// lines are kept, changed (unless it was told and has not asked since).
func (s *Session) changed(ctx actor.Context) {
	k := &s.keep
	if k.pid == nil {
		return
	}
	msg := keeper.Changed{Session: !k.saving, Lines: !k.lining && s.opts.Lines != nil, Panes: k.panes}
	if msg.Session || msg.Lines {
		k.saving, k.lining = true, k.lining || msg.Lines
		ctx.Send(k.pid, &msg)
	}
}

// linesChanged tells the keeper a pane's screen changed.
func (s *Session) linesChanged(ctx actor.Context, p *paneRec, f *pane.Facts) {
	if k := &s.keep; k.pid != nil && s.opts.Lines != nil && !k.lining && f.Revision != p.facts.Revision {
		k.lining = true
		ctx.Send(k.pid, &keeper.Changed{Lines: true, Panes: k.panes})
	}
}

// trimAfterChange tells the keeper the number of panes when it moved:
// the memory starting or closing them left is handed back once it holds.
func (s *Session) trimAfterChange(ctx actor.Context) {
	if k := &s.keep; k.pid != nil && len(s.terms) != k.panes {
		k.panes = len(s.terms)
		ctx.Send(k.pid, &keeper.Changed{Panes: k.panes})
	}
}

// save answers the keeper's SaveNow, and tells it the last save as the
// session stops.
func (s *Session) save(ctx actor.Context) {
	if s.keep.pid == nil || s.opts.SessionFile == "" {
		return
	}
	s.keep.saving = false
	saved := keeper.Detached(s.m.Save(s.savedPane))
	ctx.Send(s.keep.pid, &keeper.Save{Saved: &saved})
}

// savedPane is what the session keeps of a pane beyond its place: the
// agent session its agent reported, its lines' key, and its terminal
// session's leader (for the next server to end it should this one die:
// pane.EndLeftovers).
func (s *Session) savedPane(p *model.Pane) model.SavedPane {
	r := s.terms[p.TermID()]
	if r == nil {
		return model.SavedPane{}
	}
	var sp model.SavedPane
	if r.shown.Session != nil {
		ref := *r.shown.Session
		sp.AgentSession = &ref
	}
	sp.History = s.keep.keys.Key(p.TermID())
	if r.facts.ShellStart != "" {
		sp.Process = &model.SavedProcess{Pid: r.facts.ShellPID, Start: r.facts.ShellStart}
	}
	return sp
}

// keepLines is a new pane's part in kept lines (keeper.LineKeys.Keep).
func (s *Session) keepLines(termID, saved string, restore bool) *pane.KeepLines {
	return s.keep.keys.Keep(termID, saved, restore)
}

// saveLines answers the keeper's LinesNow: the keys of the panes there
// are (the files of the others go) and the panes to ask for their lines.
func (s *Session) saveLines(ctx actor.Context) {
	k := &s.keep
	k.lining = false
	lines := &keeper.Lines{Live: k.keys.Live(func(termID string) bool { return s.terms[termID] != nil })}
	for _, p := range s.terms {
		if p.pid != nil {
			lines.Panes = append(lines.Panes, p.pid)
		}
	}
	ctx.Send(k.pid, lines)
}
