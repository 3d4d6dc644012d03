package session

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
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
	seed := tabactor.Seed{ID: t.ID(), Label: t.Label(), Session: ctx.Self(), Log: kit.LazyWith(s.opts.Log, slog.String("tab", t.ID())), Sizes: s.recs.Sizes(t)}
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

// workspaceChanged takes in what a workspace actor holds now and publishes
// the event it names.
func (s *Session) workspaceChanged(ctx actor.Context, m *wsactor.Changed) {
	w := s.m.Workspace(m.ID)
	if w == nil {
		return
	}
	s.tx.SetWorkspaceRecord(w, m.Label, m.Tokens)
	switch m.Event {
	case "workspace_renamed":
		s.emit(protocol.WorkspaceRenamedEvent{WorkspaceID: w.ID(), Label: w.Label()}, s.recs.WorkspaceFields(w))
	case "workspace_metadata_updated":
		s.emit(protocol.WorkspaceEvent{Kind: "workspace_metadata_updated", Workspace: s.recs.WorkspaceInfo(w)}, s.recs.WorkspaceFields(w))
	}
}

// tabChanged takes in a tab actor's label.
func (s *Session) tabChanged(ctx actor.Context, m *tabactor.Changed) {
	t, err := s.m.ResolveTab(m.ID)
	if err != nil || t.ID() != m.ID {
		return
	}
	s.tx.SetTabLabel(t, m.Label)
	if m.Event == "tab_renamed" {
		s.emit(protocol.TabRenamedEvent{TabID: t.ID(), WorkspaceID: t.WS().ID(), Label: s.recs.TabInfo(t).Label}, s.recs.TabFields(t))
	}
}
