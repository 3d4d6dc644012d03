package session

import "github.com/herdr-go/herdr/actors/session/model"

var workspaceHandlers = map[string]handler{
	"workspace.create": placing((*model.Tx).CreateWorkspace, (*model.Tx).WorkspaceMade),
	"workspace.focus":  onWorkspace((*model.Tx).WorkspaceFocus),
	"workspace.close":  onWorkspace((*model.Tx).WorkspaceClose),
}
