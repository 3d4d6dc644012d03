package session

import (
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// The session's side of the workspace and tab actors. The session changes
// topology inside one message; when the message is done (settle) it starts
// the actors of the workspaces and tabs that message made, stops those of
// the ones it removed, and tells every tab whose rectangles moved the size
// of each of its panes. An entity actor that fails is restarted from the
// session's record with its mailbox kept (HandleFailure), so the calls
// queued behind the one that broke are still answered.

// entity is the session's handle on a workspace's or tab's actor, by id.
type entity struct {
	pid *actor.PID
	rev uint64 // of the last Changed taken
	// reseed puts the session's record of the entity where its actor
	// restarts from, and queues what the new instance must be told.
	reseed func(sys *actor.ActorSystem)
}

// actorOf is the actor of the workspace or tab with id, or nil.
func (s *Session) actorOf(id string) *actor.PID {
	if e := s.entities[id]; e != nil {
		return e.pid
	}
	return nil
}

// born queues a new workspace or tab for its actor at the end of the message.
func (s *Session) born(entity any) { s.newborn = append(s.newborn, entity) }

// retire stops the actor of a workspace or tab that is gone, at the end
// of the message, after what is already queued for it.
func (s *Session) retire(id string) {
	if e := s.entities[id]; e != nil {
		delete(s.entities, id)
		s.tx.OnDiscard(func() { s.entities[id] = e })
		s.retired = append(s.retired, e.pid)
	}
}

// settleEntities runs at the end of every message: it starts and stops
// entity actors and sends the tabs their new sizes.
func (s *Session) settleEntities(ctx actor.Context) {
	for _, e := range s.newborn {
		switch e := e.(type) {
		case *workspace:
			if s.m.Alive(e) && s.entities[e.ID] == nil {
				s.spawnWorkspace(ctx, e)
			}
		case *tab:
			if s.m.TabAlive(e) && s.entities[e.ID] == nil {
				s.spawnTab(ctx, e)
			}
		}
	}
	clear(s.newborn)
	s.newborn = s.newborn[:0]
	for _, pid := range s.retired {
		ctx.Poison(pid)
	}
	clear(s.retired)
	s.retired = s.retired[:0]
	for _, t := range s.dirtyTabs {
		if pid := s.actorOf(t.ID); pid != nil && s.m.TabAlive(t) {
			ctx.Send(pid, s.arrangement(t))
		}
	}
}

// actorName names an entity's actor after its id and a serial number, so
// a rebuilt actor never waits for its predecessor's name to be released.
func (s *Session) actorName(id string) string {
	s.spawned++
	return id + "." + strconv.FormatUint(s.spawned, 10)
}

func (s *Session) spawnWorkspace(ctx actor.Context, w *workspace) {
	e := &entity{}
	seed := func() wsactor.Seed {
		return wsactor.Seed{ID: w.ID, Label: w.Label, Auto: w.Auto, Tokens: w.Tokens, Rev: e.rev, Log: kit.LazyWith(s.opts.Log, slog.String("workspace", w.ID))}
	}
	box := kit.NewReseed(seed())
	pid, err := ctx.SpawnNamed(s.opts.WorkspaceProps(box), s.actorName(w.ID))
	if err != nil {
		s.opts.Log.Error("start workspace actor", "workspace", w.ID, "err", err)
		return
	}
	e.pid = pid
	e.reseed = func(*actor.ActorSystem) { box.Set(seed()) }
	s.entities[w.ID] = e
}

// spawnTab starts t's actor, knowing the sizes its panes were started at.
// A restarted one starts knowing none and is sent the arrangement.
func (s *Session) spawnTab(ctx actor.Context, t *tab) {
	e := &entity{}
	seed := tabactor.Seed{ID: t.ID, Label: t.Label, Log: kit.LazyWith(s.opts.Log, slog.String("tab", t.ID)), Sizes: map[string]uint64{}}
	for _, p := range s.tabPanes(t) {
		seed.Sizes[p.TermID] = p.sizeRev
	}
	box := kit.NewReseed(seed)
	pid, err := ctx.SpawnNamed(s.opts.TabProps(box), s.actorName(t.ID))
	if err != nil {
		s.opts.Log.Error("start tab actor", "tab", t.ID, "err", err)
		return
	}
	e.pid = pid
	e.reseed = func(sys *actor.ActorSystem) {
		box.Set(tabactor.Seed{ID: t.ID, Label: t.Label, Rev: e.rev, Log: seed.Log})
		sys.Root.Send(pid, s.arrangement(t)) // behind what is queued, in the new instance
	}
	s.entities[t.ID] = e
}

// entityRestarts bounds how often one entity actor may fail: past it, a
// fault that recurs at every start would spin, so the actor is stopped.
const entityRestarts = 10

// HandleFailure supervises the session's children (protoactor asks an
// actor's own HandleFailure before its props' strategy). It runs on the
// session's goroutine, between two of its messages. A pane that fails is
// stopped, never restarted: a restart would start a new shell under the
// old identity, so the pane closes as if its program had exited. A
// workspace or tab actor is restarted from the session's record.
func (s *Session) HandleFailure(sys *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, rs *actor.RestartStatistics, reason, _ any) {
	for id, e := range s.entities {
		if !e.pid.Equal(child) {
			continue
		}
		if rs.Fail(); rs.NumberOfFailures(10*time.Second) > entityRestarts {
			s.opts.Log.Error("entity actor keeps failing; stopping it", "id", id, "reason", reason)
			delete(s.entities, id)
			sup.StopChildren(child)
			return
		}
		s.opts.Log.Error("entity actor failed; restarting it from the session's record", "id", id, "reason", reason)
		e.reseed(sys)
		sup.RestartChildren(child)
		return
	}
	s.opts.Log.Error("actor failed; stopping it", "actor", child.Id, "reason", reason)
	sup.StopChildren(child)
}

// arrangement computes the size of every pane of t from its rectangles,
// giving a pane whose size changed a new size revision.
func (s *Session) arrangement(t *tab) *tabactor.Arrange {
	rects := s.m.TabRects(t)
	a := &tabactor.Arrange{Sizes: make([]tabactor.Size, 0, len(rects))}
	for _, r := range rects {
		p := s.terms[r.ID]
		if p == nil {
			continue
		}
		if cols, rows := s.contentSize(r.Rect); cols != p.cols || rows != p.rows {
			p.cols, p.rows = cols, rows
			p.sizeRev++
			s.touch(p) // its viewport rows (reads.go)
		}
		a.Sizes = append(a.Sizes, tabactor.Size{TerminalID: p.TermID, PID: p.pid, Cols: p.cols, Rows: p.rows, Rev: p.sizeRev})
	}
	return a
}

// forwardToWorkspace hands a workspace's own method to its actor, which
// answers the caller.
func (s *Session) forwardToWorkspace(ctx actor.Context, call *kit.Call, w *workspace) *kit.Reply {
	pid := s.actorOf(w.ID)
	if pid == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "workspace %s has no actor (see the server log)", w.ID))
	}
	ctx.RequestWithCustomSender(pid, &wsactor.Request{Call: call, Info: s.workspaceInfo(w), Cwd: w.Cwd}, ctx.Sender())
	return nil
}

// forwardToTab hands a tab's own method to its actor.
func (s *Session) forwardToTab(ctx actor.Context, call *kit.Call, t *tab) *kit.Reply {
	pid := s.actorOf(t.ID)
	if pid == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "tab %s has no actor (see the server log)", t.ID))
	}
	ctx.RequestWithCustomSender(pid, &tabactor.Request{Call: call, Info: s.tabInfo(t)}, ctx.Sender())
	return nil
}

// fresh takes a Changed's revision: false for one from an actor the
// session no longer knows (an entity gone, an actor replaced) or older
// than one already taken, which is dropped.
func (s *Session) fresh(ctx actor.Context, id string, rev uint64) bool {
	e := s.entities[id]
	if e == nil || !e.pid.Equal(ctx.Sender()) || rev <= e.rev {
		return false
	}
	e.rev = rev
	return true
}

// workspaceChanged takes in what a workspace actor holds now and publishes
// the event it names.
func (s *Session) workspaceChanged(ctx actor.Context, m *wsactor.Changed) {
	w := s.m.Workspace(m.ID)
	if w == nil || !s.fresh(ctx, m.ID, m.Rev) {
		return
	}
	s.tx.SetWorkspaceRecord(w, m.Label, m.Tokens)
	switch m.Event {
	case "workspace_renamed":
		s.emit(protocol.WorkspaceRenamedEvent{WorkspaceID: w.ID, Label: w.Label}, s.workspaceFields(w))
	case "workspace_metadata_updated":
		s.emit(protocol.WorkspaceEvent{Kind: "workspace_metadata_updated", Workspace: s.workspaceInfo(w)}, s.workspaceFields(w))
	}
}

// tabChanged takes in a tab actor's label.
func (s *Session) tabChanged(ctx actor.Context, m *tabactor.Changed) {
	t, err := s.m.ResolveTab(m.ID)
	if err != nil || t.ID != m.ID || !s.fresh(ctx, m.ID, m.Rev) {
		return
	}
	s.tx.SetTabLabel(t, m.Label)
	if m.Event == "tab_renamed" {
		s.emit(protocol.TabRenamedEvent{TabID: t.ID, WorkspaceID: t.WS.ID, Label: s.tabInfo(t).Label}, s.tabFields(t))
	}
}
