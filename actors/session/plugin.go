package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// plugin.action.invoke comes to the session first: a plugin action's
// context gets what the caller left out from the model (the active
// workspace, its tab, the focused pane), and the plugins actor runs it
// and answers the caller.

var pluginHandlers = map[string]handler{
	"plugin.action.invoke": (*Session).pluginInvoke,
}

func (s *Session) pluginInvoke(ctx actor.Context, call *api.Call) *api.Reply {
	if s.opts.Plugins == nil {
		return api.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
	}
	prm := call.Params.(*protocol.PluginActionInvokeParams)
	c := protocol.PluginInvocationContext{}
	if prm.Context != nil {
		c = *prm.Context
	}
	w := s.m.Focused
	if c.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*c.WorkspaceID); err != nil {
			return api.Fail(err)
		}
	}
	fill := func(dst **string, v string) {
		if *dst == nil && v != "" {
			*dst = protocol.Ptr(v)
		}
	}
	if w != nil {
		info := s.workspaceInfo(w)
		c.WorkspaceID = protocol.Ptr(w.ID)
		fill(&c.WorkspaceLabel, info.Label)
		fill(&c.WorkspaceCwd, w.Cwd)
		if c.Worktree == nil {
			c.Worktree = w.Worktree
		}
		if t := w.Active; t != nil && c.TabID == nil {
			c.TabID = protocol.Ptr(t.ID)
			fill(&c.TabLabel, s.tabInfo(t).Label)
		}
		if p := s.terms[w.Active.Focused]; p != nil && c.FocusedPaneID == nil {
			c.FocusedPaneID = protocol.Ptr(p.ID)
			pi := s.paneInfo(p)
			c.FocusedPaneCwd = pi.Cwd
			if pi.ForegroundCwd != nil {
				c.FocusedPaneCwd = pi.ForegroundCwd
			}
			c.FocusedPaneAgent = pi.Agent
			if c.FocusedPaneStatus == nil {
				st := pi.AgentStatus
				c.FocusedPaneStatus = &st
			}
		}
	}
	fill(&c.InvocationSource, "api")
	fill(&c.CorrelationID, call.ID)
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.Invoke{Call: call, Context: c}, ctx.Sender())
	return nil
}
