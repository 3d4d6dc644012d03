package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var workspaceHandlers = map[string]handler{
	"workspace.create": (*Session).workspaceCreate,
}

var workspaceRoutes = map[string]workspaceHandler{
	"workspace.focus": onWorkspace((*model.Tx).WorkspaceFocus),
	"workspace.close": onWorkspace((*model.Tx).WorkspaceClose),
}

func (s *Session) workspaceCreate(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.WorkspaceCreateParams)
	fallback, err := s.m.WorkspaceCwd(s.env(), prm)
	if err != nil {
		return kit.Fail(err)
	}
	cwd, err := s.spawner.CheckCwd(prm.Cwd, fallback)
	if err != nil {
		return kit.Fail(err)
	}
	label := ""
	if prm.Label != nil {
		label = *prm.Label
	}
	w, err := s.newWorkspace(ctx, label, paneSetup{cwd: cwd, env: prm.Env})
	if err != nil {
		return kit.Fail(err)
	}
	res, out := s.tx.WorkspaceMade(s.env(), prm, w)
	return s.did(res, out, nil)
}

// emitCreated announces a new workspace, tab and/or pane (nil = not new).
func (s *Session) emitCreated(w *workspace, t *tab, p *paneRec) {
	var mp *model.Pane
	if p != nil {
		mp = p.Pane
	}
	s.apply(model.Created(s.env(), w, t, mp))
}

// emitWorkspaceUpdated announces a change of a workspace's record (its tabs).
func (s *Session) emitWorkspaceUpdated(w *workspace) { s.apply(s.m.WorkspaceUpdated(s.env(), w)) }
