package protocol

import "strings"

// commandMethods run a configured command by id (protocol 22).
var commandMethods = []Method{
	{Name: "command.invoke", Since: "0.9.0", Params: func() Params { return &CommandInvokeParams{} }, Result: "ok", Summary: "Run a [[keys.command]] (by its id, else keys.command.<index>) or a plugin action by id, with a workspace, tab and pane as its context", Owner: OwnerCommands, Shape: ShapeAnswer},
}

// CodeCommandNotFound: command.invoke named no key command and no plugin
// action.
const CodeCommandNotFound = "command_not_found"

// CommandInvokeParams are the params of command.invoke. The workspace, tab
// and pane say where it runs (the focused ones when left out); Selection,
// when given, names text of a pane as pane.selection.read does.
type CommandInvokeParams struct {
	CommandID   string                   `json:"command_id"`
	WorkspaceID *string                  `json:"workspace_id,omitempty"`
	TabID       *string                  `json:"tab_id,omitempty"`
	PaneID      *string                  `json:"pane_id,omitempty"`
	Selection   *PaneSelectionReadParams `json:"selection,omitempty"`
}

// Validate implements Params.
func (p *CommandInvokeParams) Validate() error {
	if err := required("command_id", p.CommandID); err != nil {
		return err
	}
	if p.Selection != nil {
		if err := p.Selection.Validate(); err != nil {
			return ParamError("selection", "%s", strings.TrimPrefix(AsError(err).Message, "invalid params: "))
		}
	}
	return nil
}
