package audit

import (
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// ViewLocator places entities in the session's newest published View:
// every id form the session resolves (view/resolve.go), agents by name,
// terminals by id. A call checked against it and then resolved by the
// session sees the same View or a newer one; an entity created between
// the two is not found here, never placed wrongly.
type ViewLocator struct {
	Newest func() *view.View
}

var errStarting = protocol.Errorf(protocol.CodeServerUnavailable, "the session is still being restored; try again")

// Locate implements Locator.
func (l ViewLocator) Locate(kind Kind, id string) (Place, error) {
	v := l.Newest()
	if v == nil {
		return Place{}, errStarting
	}
	switch kind {
	case KindWorkspace:
		i, err := v.ResolveWorkspace(id)
		if err != nil {
			return Place{}, err
		}
		return place(v, v.Spaces[i].Info.WorkspaceID), nil
	case KindTab:
		i, err := v.ResolveTab(id)
		if err != nil {
			return Place{}, err
		}
		return place(v, v.Tabs[i].Info.WorkspaceID), nil
	case KindPane:
		i, err := v.ResolvePane(id)
		if err != nil {
			return Place{}, err
		}
		return place(v, v.Rec(i).Info.WorkspaceID), nil
	case KindTerminal:
		for i := range v.Panes {
			if r := v.Rec(i); r.Info.TerminalID == id {
				return place(v, r.Info.WorkspaceID), nil
			}
		}
		return Place{}, protocol.Errorf(protocol.CodePaneNotFound, "terminal %s not found", id)
	case KindAgent:
		if i, err := v.ResolvePane(id); err == nil {
			return place(v, v.Rec(i).Info.WorkspaceID), nil
		}
		for i := range v.Panes {
			if r := v.Rec(i); r.Agent != nil && r.Agent.Name != nil && *r.Agent.Name == id {
				return place(v, r.Info.WorkspaceID), nil
			}
		}
		return Place{}, protocol.Errorf(protocol.CodeAgentNotFound, "agent %s not found", id)
	}
	return Place{}, protocol.Errorf(protocol.CodeInternal, "cannot place an entity of kind %d", kind)
}

// Focused implements Locator.
func (l ViewLocator) Focused(workspace string) (Place, error) {
	v := l.Newest()
	if v == nil {
		return Place{}, errStarting
	}
	if workspace != "" {
		return l.Locate(KindWorkspace, workspace)
	}
	if v.FocusedPane < 0 || v.FocusedPane >= len(v.Panes) {
		return Place{}, protocol.Errorf(protocol.CodeNoActivePane, "no pane is focused")
	}
	return place(v, v.Rec(v.FocusedPane).Info.WorkspaceID), nil
}

func place(v *view.View, ws string) Place {
	p := Place{Workspace: ws}
	if i, ok := v.WSByID[ws]; ok {
		p.Label = v.Spaces[i].Info.Label
	}
	return p
}
