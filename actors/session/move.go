package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The moves are the model's operations (model/ops_move.go).
var moveHandlers = map[string]handler{
	"pane.move":            (*Session).paneMove,
	"workspace.move":       (*Session).workspaceMove,
	"workspace.move_block": (*Session).workspaceMoveBlock,
	"tab.move":             (*Session).tabMove,
}

func (s *Session) paneMove(_ actor.Context, call *kit.Call) *kit.Reply {
	return s.did(s.tx.MovePane(s.env(), call.Params.(*protocol.PaneMoveParams)))
}

func (s *Session) workspaceMove(_ actor.Context, call *kit.Call) *kit.Reply {
	return s.did(s.tx.MoveWorkspace(s.env(), call.Params.(*protocol.WorkspaceMoveParams)))
}

func (s *Session) workspaceMoveBlock(_ actor.Context, call *kit.Call) *kit.Reply {
	return s.did(s.tx.MoveWorkspaceBlock(s.env(), call.Params.(*protocol.WorkspaceMoveBlockParams)))
}

func (s *Session) tabMove(_ actor.Context, call *kit.Call) *kit.Reply {
	return s.did(s.tx.MoveTabTo(s.env(), call.Params.(*protocol.TabMoveParams)))
}
