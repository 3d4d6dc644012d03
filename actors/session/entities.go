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

// born queues a new workspace or tab for its actor at the end of the message.
func (s *Session) born(entity any) { s.newborn = append(s.newborn, entity) }

// retire stops an entity actor at the end of the message, after what is
// already queued for it.
func (s *Session) retire(pid *actor.PID) {
	if pid != nil {
		s.retired = append(s.retired, pid)
	}
}

// settleEntities runs at the end of every message: it starts and stops
// entity actors and sends the tabs their new sizes.
func (s *Session) settleEntities(ctx actor.Context) {
	for _, e := range s.newborn {
		switch e := e.(type) {
		case *workspace:
			if s.byWorkspace[e.id] == e && e.pid == nil {
				s.spawnWorkspace(ctx, e)
			}
		case *tab:
			if s.byWorkspace[e.ws.id] == e.ws && e.ws.tabIndex(e) >= 0 && e.pid == nil {
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
	for _, t := range s.dirtyTabs {
		if t.pid != nil && t.ws.tabIndex(t) >= 0 && s.byWorkspace[t.ws.id] == t.ws {
			ctx.Send(t.pid, s.arrangement(t))
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
		ID: w.id, Label: w.label, Auto: w.auto, Tokens: w.tokens, Log: s.opts.Log.With("workspace", w.id),
	}), s.actorName(w.id))
	if err != nil {
		s.opts.Log.Error("start workspace actor", "workspace", w.id, "err", err)
		return
	}
	w.pid = pid
}

// spawnTab starts t's actor: a new tab's knowing its panes' sizes, a
// rebuilt one's told them at once (the panes drop sizes they have).
func (s *Session) spawnTab(ctx actor.Context, t *tab, fresh bool) {
	seed := tabactor.Seed{ID: t.id, Label: t.label, Log: s.opts.Log.With("tab", t.id)}
	if fresh {
		seed.Sizes = map[string]uint64{}
		for _, p := range s.tabPanes(t) {
			seed.Sizes[p.termID] = p.sizeRev
		}
	}
	pid, err := ctx.SpawnNamed(s.opts.TabProps(seed), s.actorName(t.id))
	if err != nil {
		s.opts.Log.Error("start tab actor", "tab", t.id, "err", err)
		return
	}
	t.pid = pid
	if !fresh {
		ctx.Send(pid, s.arrangement(t))
	}
}

// arrangement computes the size of every pane of t from its rectangles,
// giving a pane whose size changed a new size revision.
func (s *Session) arrangement(t *tab) *tabactor.Arrange {
	rects := s.tabRects(t)
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
		a.Sizes = append(a.Sizes, tabactor.Size{TerminalID: p.termID, PID: p.pid, Cols: p.cols, Rows: p.rows, Rev: p.sizeRev})
	}
	return a
}

// forwardToWorkspace hands a workspace's own method to its actor, which
// answers the caller.
func (s *Session) forwardToWorkspace(ctx actor.Context, call *api.Call, w *workspace) *api.Reply {
	if w.pid == nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "workspace %s is restarting; try again", w.id))
	}
	ctx.RequestWithCustomSender(w.pid, &wsactor.Request{Call: call, Info: s.workspaceInfo(w)}, ctx.Sender())
	return nil
}

// forwardToTab hands a tab's own method to its actor.
func (s *Session) forwardToTab(ctx actor.Context, call *api.Call, t *tab) *api.Reply {
	if t.pid == nil {
		return api.Fail(protocol.Errorf(protocol.CodeInternal, "tab %s is restarting; try again", t.id))
	}
	ctx.RequestWithCustomSender(t.pid, &tabactor.Request{Call: call, Info: s.tabInfo(t)}, ctx.Sender())
	return nil
}

// workspaceChanged takes in what a workspace actor holds now and publishes
// the event it names. A change from an actor the session no longer knows,
// or older than one already taken, is dropped.
func (s *Session) workspaceChanged(ctx actor.Context, m *wsactor.Changed) {
	w := s.byWorkspace[m.ID]
	if w == nil || !w.pid.Equal(ctx.Sender()) || m.Rev <= w.rev {
		return
	}
	w.rev, w.label, w.tokens = m.Rev, m.Label, m.Tokens
	switch m.Event {
	case "workspace_renamed":
		s.emit(protocol.WorkspaceRenamedEvent{WorkspaceID: w.id, Label: w.label}, s.workspaceFields(w))
	case "workspace_metadata_updated":
		s.emit(protocol.WorkspaceEvent{Kind: "workspace_metadata_updated", Workspace: s.workspaceInfo(w)}, s.workspaceFields(w))
	}
}

// tabChanged takes in a tab actor's label.
func (s *Session) tabChanged(ctx actor.Context, m *tabactor.Changed) {
	t, err := s.resolveTab(m.ID)
	if err != nil || t.id != m.ID || !t.pid.Equal(ctx.Sender()) || m.Rev <= t.rev {
		return
	}
	t.rev, t.label = m.Rev, m.Label
	if m.Event == "tab_renamed" {
		s.emit(protocol.TabRenamedEvent{TabID: t.id, WorkspaceID: t.ws.id, Label: s.tabInfo(t).Label}, s.tabFields(t))
	}
}

// entityStopped starts again, from the session's record, a workspace or
// tab actor that stopped while its entity still exists (it failed; an
// entity closed on purpose is forgotten before its actor stops). It
// reports whether who was one.
func (s *Session) entityStopped(ctx actor.Context, who *actor.PID) bool {
	for _, w := range s.workspaces {
		if w.pid.Equal(who) {
			s.opts.Log.Error("workspace actor stopped after a failure; starting it again", "workspace", w.id)
			w.pid, w.rev = nil, 0
			s.spawnWorkspace(ctx, w)
			return true
		}
		for _, t := range w.tabs {
			if t.pid.Equal(who) {
				s.opts.Log.Error("tab actor stopped after a failure; starting it again", "tab", t.id)
				t.pid, t.rev = nil, 0
				s.spawnTab(ctx, t, false)
				return true
			}
		}
	}
	return false
}
