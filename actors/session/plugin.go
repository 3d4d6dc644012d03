package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/plugins"
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

// Plugin panes: the plugins actor resolves an entrypoint and sends an
// OpenPane; the session opens it as a split, a tab or a zoomed split and
// remembers which panes are plugin panes, for plugin.pane.focus|close.
// Overlays and popups are drawn by the interactive client, which does not
// draw them yet: they are refused with a clear error.

var pluginPaneHandlers = map[string]handler{
	"plugin.pane.focus": (*Session).pluginPaneFocus,
	"plugin.pane.close": (*Session).pluginPaneClose,
}

// pluginPane is what the session keeps of a plugin's pane.
type pluginPane struct{ pluginID, entrypoint string }

func (s *Session) openPluginPane(ctx actor.Context, m *plugins.OpenPane) *api.Reply {
	prm := m.Call.Params.(*protocol.PluginPaneOpenParams)
	setup := paneSetup{cwd: m.Cwd, env: m.Env, command: m.Argv}
	var p *paneRec
	var err error
	switch m.Placement {
	case "split", "zoomed":
		src, err := s.orFocused(prm.TargetPaneID)
		if prm.TargetPaneID == nil && prm.WorkspaceID != nil {
			var w *workspace
			if w, err = s.m.ResolveWorkspace(*prm.WorkspaceID); err == nil {
				src = s.terms[w.Active.Focused]
			}
		}
		if err != nil {
			return api.Fail(err)
		}
		dir := layout.SplitRight
		if prm.Direction != nil {
			dir = layout.Direction(*prm.Direction)
		}
		if p, err = s.splitPane(ctx, src, dir, 0.5, setup); err != nil {
			return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "%s", protocol.AsError(err).Message))
		}
		if m.Placement == "zoomed" {
			p.Tab.Focused, p.Tab.Zoomed = p.TermID, true
			s.relayout(ctx, p.Tab)
		}
	case "tab":
		w := s.m.Focused
		if prm.WorkspaceID != nil {
			if w, err = s.m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
				return api.Fail(err)
			}
		}
		if w == nil {
			return api.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first"))
		}
		t, err := s.newTab(ctx, w, "", setup)
		if err != nil {
			return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "%s", protocol.AsError(err).Message))
		}
		p = s.terms[t.Focused]
		s.emitCreated(nil, t, nil)
		s.emitWorkspaceUpdated(w)
	default:
		return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "placement %s is drawn by the interactive client, which does not draw plugin %ss yet; use split, tab or zoomed", m.Placement, m.Placement))
	}
	if prm.Focus || m.Placement == "zoomed" {
		s.m.FocusPane(p.Pane)
	}
	s.emitCreated(nil, nil, p)
	if s.pluginPanes == nil {
		s.pluginPanes = map[string]pluginPane{}
	}
	s.pluginPanes[p.TermID] = pluginPane{m.PluginID, m.Entrypoint}
	return api.Done(protocol.PluginPaneOpened{PluginPane: protocol.PluginPaneInfo{PluginID: m.PluginID, Entrypoint: m.Entrypoint, Pane: s.paneInfo(p)}})
}

// pluginPaneOf resolves a plugin pane by its pane id.
func (s *Session) pluginPaneOf(id string) (*paneRec, pluginPane, error) {
	if p, err := s.resolvePane(id); err == nil {
		if pp, ok := s.pluginPanes[p.TermID]; ok {
			return p, pp, nil
		}
	}
	return nil, pluginPane{}, protocol.Errorf(protocol.CodePluginPaneNotFound, "%s is not a plugin pane", id)
}

func (s *Session) pluginPaneFocus(_ actor.Context, call *api.Call) *api.Reply {
	p, pp, err := s.pluginPaneOf(call.Params.(*protocol.PluginPaneTarget).PaneID)
	if err != nil {
		return api.Fail(err)
	}
	s.m.FocusPane(p.Pane)
	return api.Done(protocol.PluginPaneFocused{PluginPane: protocol.PluginPaneInfo{PluginID: pp.pluginID, Entrypoint: pp.entrypoint, Pane: s.paneInfo(p)}})
}

func (s *Session) pluginPaneClose(ctx actor.Context, call *api.Call) *api.Reply {
	p, _, err := s.pluginPaneOf(call.Params.(*protocol.PluginPaneTarget).PaneID)
	if err != nil {
		return api.Fail(err)
	}
	id := p.ID
	s.closePane(ctx, p)
	return api.Done(protocol.PluginPaneClosed{PaneID: id})
}
