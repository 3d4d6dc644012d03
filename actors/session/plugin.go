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
	if err := s.fillContext(&c); err != nil {
		return api.Fail(err)
	}
	fill := func(dst **string, v string) {
		if *dst == nil && v != "" {
			*dst = protocol.Ptr(v)
		}
	}
	fill(&c.InvocationSource, "api")
	fill(&c.CorrelationID, call.ID)
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.Invoke{Call: call, Context: c}, ctx.Sender())
	return nil
}

// fillContext completes a plugin context with what the caller left out:
// the workspace (the focused one unless named), its active tab and focused
// pane. A caller that names the pane (a link click names the pane clicked)
// gets that pane's tab, workspace, cwd and agent.
func (s *Session) fillContext(c *protocol.PluginInvocationContext) error {
	w := s.m.Focused
	var p *paneRec
	if c.FocusedPaneID != nil {
		if named, err := s.resolvePane(*c.FocusedPaneID); err == nil {
			p, w = named, named.WS
		}
	}
	if c.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*c.WorkspaceID); err != nil {
			return err
		}
	}
	fill := func(dst **string, v string) {
		if *dst == nil && v != "" {
			*dst = protocol.Ptr(v)
		}
	}
	if w == nil {
		return nil
	}
	info := s.workspaceInfo(w)
	c.WorkspaceID = protocol.Ptr(w.ID)
	fill(&c.WorkspaceLabel, info.Label)
	fill(&c.WorkspaceCwd, w.Cwd)
	if c.Worktree == nil {
		c.Worktree = w.Worktree
	}
	t := w.Active
	if p != nil && p.WS == w {
		t = p.Tab
	}
	if t != nil && c.TabID == nil {
		c.TabID = protocol.Ptr(t.ID)
		fill(&c.TabLabel, s.tabInfo(t).Label)
	}
	if p == nil && c.FocusedPaneID == nil && t != nil {
		p = s.terms[t.Focused]
	}
	if p != nil {
		fill(&c.FocusedPaneID, p.ID)
		pi := s.paneInfo(p)
		if c.FocusedPaneCwd == nil {
			c.FocusedPaneCwd = pi.Cwd
			if pi.ForegroundCwd != nil {
				c.FocusedPaneCwd = pi.ForegroundCwd
			}
		}
		if c.FocusedPaneAgent == nil {
			c.FocusedPaneAgent = pi.Agent
		}
		if c.FocusedPaneStatus == nil {
			st := pi.AgentStatus
			c.FocusedPaneStatus = &st
		}
	}
	return nil
}

// Plugin panes: the plugins actor resolves an entrypoint and sends an
// OpenPane; the session opens it as a split, a tab, a zoomed split or an
// overlay (a zoomed split of the focused pane that gives focus and zoom
// back when it goes) and remembers which panes are plugin panes, for
// plugin.pane.focus|close. A popup is no pane: the session hands it, with
// its context, to the clients actor (popup.go).

var pluginPaneHandlers = map[string]handler{
	"plugin.pane.focus": (*Session).pluginPaneFocus,
	"plugin.pane.close": (*Session).pluginPaneClose,
}

// pluginPane is what the session keeps of a plugin's pane. An overlay
// also keeps the pane focused before it and whether its tab was zoomed.
type pluginPane struct {
	pluginID, entrypoint string
	overlay              bool
	prevFocus            string // terminal id
	prevZoomed           bool
}

func (s *Session) openPluginPane(ctx actor.Context, m *plugins.OpenPane) *api.Reply {
	prm := m.Call.Params.(*protocol.PluginPaneOpenParams)
	if m.Placement == "popup" {
		return s.openPopup(ctx, m)
	}
	setup := paneSetup{cwd: m.Cwd, env: s.withContext(m.Env, prm), command: m.Argv, label: m.Title}
	var p *paneRec
	var err error
	var overlay *pluginPane
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
			s.tx.FocusInTab(p.Tab, p.TermID, true)
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
	default: // overlay: over the focused pane, which gets focus back after
		src := s.focusedPane()
		if src == nil {
			return api.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane"))
		}
		overlay = &pluginPane{overlay: true, prevFocus: src.TermID, prevZoomed: src.Tab.Zoomed}
		if p, err = s.splitPane(ctx, src, layout.SplitRight, 0.5, setup); err != nil {
			return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "%s", protocol.AsError(err).Message))
		}
		s.tx.FocusInTab(p.Tab, p.TermID, true)
		s.relayout(ctx, p.Tab)
	}
	if prm.Focus || m.Placement == "zoomed" || overlay != nil {
		s.tx.FocusPane(p.Pane)
	}
	s.emitCreated(nil, nil, p)
	if s.pluginPanes == nil {
		s.pluginPanes = map[string]pluginPane{}
	}
	rec := pluginPane{pluginID: m.PluginID, entrypoint: m.Entrypoint}
	if overlay != nil {
		rec.overlay, rec.prevFocus, rec.prevZoomed = true, overlay.prevFocus, overlay.prevZoomed
	}
	s.pluginPanes[p.TermID] = rec
	s.tx.OnDiscard(func() { delete(s.pluginPanes, p.TermID) })
	return api.Done(protocol.PluginPaneOpened{PluginPane: protocol.PluginPaneInfo{PluginID: m.PluginID, Entrypoint: m.Entrypoint, Pane: s.paneInfo(p)}})
}

// dropPluginPane forgets a closing plugin pane. An overlay still focused
// in its tab gives focus back to the pane it covered, and the tab its
// zoom, before its leaf is taken out.
func (s *Session) dropPluginPane(p *paneRec) {
	pp, ok := s.pluginPanes[p.TermID]
	if ok {
		delete(s.pluginPanes, p.TermID)
		s.tx.OnDiscard(func() { s.pluginPanes[p.TermID] = pp })
	}
	if !ok || !pp.overlay || p.Tab.Focused != p.TermID {
		return
	}
	if prev := s.terms[pp.prevFocus]; prev != nil && prev.Tab == p.Tab {
		s.tx.FocusInTab(p.Tab, prev.TermID, pp.prevZoomed)
	}
}

// withContext sets the plugin context a pane's program is given: that of
// the pane it is opened beside, or of the workspace it is opened in.
func (s *Session) withContext(env map[string]string, prm *protocol.PluginPaneOpenParams) map[string]string {
	c := protocol.PluginInvocationContext{WorkspaceID: prm.WorkspaceID, FocusedPaneID: prm.TargetPaneID}
	if s.fillContext(&c) != nil {
		c = protocol.PluginInvocationContext{}
	}
	c.InvocationSource, c.CorrelationID = protocol.Ptr("api"), protocol.Ptr("plugin-pane")
	out := make(map[string]string, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out["HERDR_PLUGIN_CONTEXT_JSON"] = contextJSON(c)
	return out
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
	s.tx.FocusPane(p.Pane)
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
