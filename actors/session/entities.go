package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
)

// The session's side of the workspace and tab actors, which the entities
// supervisor (its child, actors/entities) owns. The session changes
// topology inside one transaction; once it commits (settle, txn.go) it tells
// the supervisor to start the actors of the workspaces and tabs that
// transaction made and stop those of the ones it removed, and hands it the size
// of each pane of every tab whose rectangles moved (view.Records.Arrange).
// The supervisor passes on the entity actors' changes (a stale one
// dropped there), which the session takes as told.

// startTab has t's actor started, knowing the sizes its panes were
// started at.
func (s *Session) startTab(ctx actor.Context, t *tab) {
	seed := tabactor.Seed{ID: t.ID(), Label: t.Label(), Session: ctx.Self(), Log: kit.LazyWith(s.opts.Log, "tab", t.ID()), Sizes: s.recs.Sizes(t)}
	ctx.Send(s.ents, &entities.StartTab{Seed: seed})
}

// HandleFailure supervises the session's children, the entities
// supervisor (and the panes supervisor when the session started it):
// one that fails is stopped (protoactor asks an actor's own HandleFailure
// before its props' strategy). The pane actors are the panes
// supervisor's (actors/panes).
func (s *Session) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, _ *actor.RestartStatistics, reason, _ any) {
	s.opts.Log.Error("actor failed; stopping it", "actor", child.Id, "reason", reason)
	sup.StopChildren(child)
}
