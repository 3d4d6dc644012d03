package session

import "github.com/herdr-go/herdr/actors/session/model"

// The moves are the model's operations (model/ops_move.go).
var moveHandlers = map[string]handler{
	"pane.move":            op((*model.Tx).MovePane),
	"workspace.move":       op((*model.Tx).MoveWorkspace),
	"workspace.move_block": op((*model.Tx).MoveWorkspaceBlock),
	"tab.move":             op((*model.Tx).MoveTabTo),
}
