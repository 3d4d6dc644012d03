package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/session/model"
)

// The session's part in what is kept on disk (actors/keeper does the
// rest, the kept lines and the trim from the published View): it tells
// the keeper when session.json's content changed, once until the keeper
// asks back, and answers the keeper's SaveNow with the topology (a
// model.Saved that shares nothing with the model) and the lines key of
// each pane. It names each pane's kept lines ([advanced]
// persist_scrollback_lines: history/<key>.lines and .screen, the key
// recorded in the pane's entry of session.json, the pane's across
// restarts, moves and handoffs), because a pane is given its key as it
// starts.

// keeping is what the session told the keeper.
type keeping struct {
	pid    *actor.PID       // nil until started, and without a keeper
	saving bool             // a change told, not yet asked back for
	keys   *keeper.LineKeys // each pane's lines key (nil unless lines are kept)
}

// changed tells the keeper the session file changed (unless it was told
// and has not asked since).
func (s *Session) changed(ctx actor.Context) {
	if k := &s.keep; k.pid != nil && !k.saving {
		k.saving = true
		ctx.Send(k.pid, &keeper.Changed{})
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
	keys := s.keep.keys.Live(func(termID string) bool { return s.recs.Get(termID) != nil })
	ctx.Send(s.keep.pid, &keeper.Save{Saved: &saved, Keys: keys})
}

// savedPane is what the session file keeps of a pane beyond its place:
// its record's part (view.Records.Saved) and its lines' key.
func (s *Session) savedPane(p *model.Pane) model.SavedPane {
	sp := s.recs.Saved(p)
	sp.History = s.keep.keys.Key(p.TermID())
	return sp
}
