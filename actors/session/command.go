package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// command.invoke asks the session for what only it knows: the workspace,
// tab and pane the command runs with, the [[keys.command]] entry of the
// config it holds, and a selection's text (read by its pane first:
// pane.ReadSelection, answered back here as SelectionRead). It then hands
// the command to the plugins actor, which runs it (actors/plugins/command.go).
var commandHandlers = map[string]handler{
	"command.invoke": (*Session).commandInvoke,
}

func (s *Session) commandInvoke(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	if prm.Selection == nil {
		return s.runCommand(ctx, call, nil)
	}
	if _, err := s.commandContext(prm); err != nil {
		return kit.Fail(err)
	}
	p, err := s.resolvePane(prm.Selection.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	ctx.RequestWithCustomSender(p.pid, &pane.ReadSelection{Call: call, Selection: *prm.Selection}, ctx.Sender())
	return nil
}

// runCommand passes command.invoke on once its selection (if any) was read.
func (s *Session) runCommand(ctx actor.Context, call *kit.Call, selected *string) *kit.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	c, err := s.commandContext(prm)
	if err != nil {
		return kit.Fail(err)
	}
	if s.opts.Plugins == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
	}
	c.SelectedText = selected
	fillPtr(&c.InvocationSource, "api")
	fillPtr(&c.CorrelationID, call.ID)
	m := &plugins.Command{Call: call, Context: c, Cols: s.m.Area.W, Rows: s.m.Area.H}
	for i := range s.cfg.Keys.Commands {
		if s.cfg.Keys.Commands[i].ID == prm.CommandID {
			kc := s.cfg.Keys.Commands[i]
			m.Key = &kc
		}
	}
	ctx.RequestWithCustomSender(s.opts.Plugins, m, ctx.Sender())
	return nil
}

// commandContext resolves the workspace, tab and pane command.invoke
// names, which must agree with each other; what it leaves out is the
// focused one (of the tab or workspace named). A selection's pane must
// exist too.
func (s *Session) commandContext(prm *protocol.CommandInvokeParams) (protocol.PluginInvocationContext, error) {
	c := protocol.PluginInvocationContext{}
	var p *paneRec
	if prm.PaneID != nil {
		var err error
		if p, err = s.resolvePane(*prm.PaneID); err != nil {
			return c, err
		}
	}
	if prm.TabID != nil {
		t, err := s.m.ResolveTab(*prm.TabID)
		if err != nil {
			return c, err
		}
		if p != nil && p.Tab != t {
			return c, protocol.ParamError("pane_id", "%s is not in tab %s", p.ID, t.ID)
		}
		if p == nil {
			if p = s.terms[t.Focused]; p == nil {
				return c, protocol.Errorf(protocol.CodeNoActivePane, "tab %s has no pane", t.ID)
			}
		}
	}
	if prm.WorkspaceID != nil {
		w, err := s.m.ResolveWorkspace(*prm.WorkspaceID)
		if err != nil {
			return c, err
		}
		if p != nil && p.WS != w {
			return c, protocol.ParamError("workspace_id", "%s is not in workspace %s", p.ID, w.ID)
		}
		c.WorkspaceID = protocol.Ptr(w.ID)
	}
	if sel := prm.Selection; sel != nil {
		if _, err := s.resolvePane(sel.PaneID); err != nil {
			return c, err
		}
	}
	if p != nil {
		c.FocusedPaneID = protocol.Ptr(p.ID)
	}
	return c, s.fillContext(&c)
}
