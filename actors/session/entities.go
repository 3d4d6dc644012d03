package session

import (
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// The session's side of the workspace and tab actors. The session changes
// topology inside one message; when the message is done (settle) it starts
// the actors of the workspaces and tabs that message made, stops those of
// the ones it removed, and tells every tab whose rectangles moved the size
// of each of its panes. An entity actor that fails is stopped by the
// session's supervision and started again from the session's record.

// entity is the session's handle on a workspace's or tab's actor, by id.
type entity struct {
	pid *actor.PID
	rev uint64 // of the last Changed taken
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
		s.retired = append(s.retired, e.pid)
		s.retiredIDs = append(s.retiredIDs, id)
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
				s.spawnTab(ctx, e, true)
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
	for _, id := range s.retiredIDs {
		s.dropGitOps(ctx, id) // its actor will not answer them now
	}
	s.retiredIDs = s.retiredIDs[:0]
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
	pid, err := ctx.SpawnNamed(s.opts.WorkspaceProps(wsactor.Seed{
		ID: w.ID, Label: w.Label, Auto: w.Auto, Tokens: w.Tokens, Log: s.opts.Log.With("workspace", w.ID),
	}), s.actorName(w.ID))
	if err != nil {
		s.opts.Log.Error("start workspace actor", "workspace", w.ID, "err", err)
		return
	}
	s.entities[w.ID] = &entity{pid: pid}
}

// spawnTab starts t's actor: a new tab's knowing its panes' sizes, a
// rebuilt one's told them at once (the panes drop sizes they have).
func (s *Session) spawnTab(ctx actor.Context, t *tab, fresh bool) {
	seed := tabactor.Seed{ID: t.ID, Label: t.Label, Log: s.opts.Log.With("tab", t.ID)}
	if fresh {
		seed.Sizes = map[string]uint64{}
		for _, p := range s.tabPanes(t) {
			seed.Sizes[p.TermID] = p.sizeRev
		}
	}
	pid, err := ctx.SpawnNamed(s.opts.TabProps(seed), s.actorName(t.ID))
	if err != nil {
		s.opts.Log.Error("start tab actor", "tab", t.ID, "err", err)
		return
	}
	s.entities[t.ID] = &entity{pid: pid}
	if !fresh {
		ctx.Send(pid, s.arrangement(t))
	}
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
		}
		a.Sizes = append(a.Sizes, tabactor.Size{TerminalID: p.TermID, PID: p.pid, Cols: p.cols, Rows: p.rows, Rev: p.sizeRev})
	}
	return a
}

// forwardToWorkspace hands a workspace's own method to its actor, which
// answers the caller.
func (s *Session) forwardToWorkspace(ctx actor.Context, call *api.Call, w *workspace) *api.Reply {
	pid := s.actorOf(w.ID)
	if pid == nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "workspace %s is restarting; try again", w.ID))
	}
	ctx.RequestWithCustomSender(pid, &wsactor.Request{Call: call, Info: s.workspaceInfo(w), Cwd: w.Cwd}, ctx.Sender())
	return nil
}

// forwardToTab hands a tab's own method to its actor.
func (s *Session) forwardToTab(ctx actor.Context, call *api.Call, t *tab) *api.Reply {
	pid := s.actorOf(t.ID)
	if pid == nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "tab %s is restarting; try again", t.ID))
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
	w.Label, w.Tokens = m.Label, m.Tokens
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
	t.Label = m.Label
	if m.Event == "tab_renamed" {
		s.emit(protocol.TabRenamedEvent{TabID: t.ID, WorkspaceID: t.WS.ID, Label: s.tabInfo(t).Label}, s.tabFields(t))
	}
}

// entityStopped starts again, from the session's record, a workspace or
// tab actor that stopped while its entity still exists (it failed; an
// entity closed on purpose is forgotten before its actor stops). It
// reports whether who was one.
func (s *Session) entityStopped(ctx actor.Context, who *actor.PID) bool {
	for id, e := range s.entities {
		if !e.pid.Equal(who) {
			continue
		}
		delete(s.entities, id)
		if w := s.m.Workspace(id); w != nil {
			s.opts.Log.Error("workspace actor stopped after a failure; starting it again", "workspace", id)
			s.spawnWorkspace(ctx, w)
		} else if t, err := s.m.ResolveTab(id); err == nil && t.ID == id {
			s.opts.Log.Error("tab actor stopped after a failure; starting it again", "tab", id)
			s.spawnTab(ctx, t, false)
		}
		return true
	}
	return false
}
