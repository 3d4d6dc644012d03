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
	pl, err := s.tx.CreateWorkspace(s.env(), prm, s.starts())
	if err == nil {
		err = s.launch(ctx, pl)
	}
	if err != nil {
		return kit.Fail(err)
	}
	return s.did(s.tx.WorkspaceMade(s.env(), prm, pl.Pane().WS()))
}
