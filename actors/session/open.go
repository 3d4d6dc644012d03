package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// Plugin calls and popups pass through the session only for what it
// alone knows: it fills in the context of the call (the workspace, tab
// and pane it names or the focused ones, their folders and agent) and
// the tab area, or resolves the pane a call names, and forwards the call
// to the plugins or clients actor, which answers it. When their work
// changes the topology (a plugin pane opens, is focused or closes) they
// ask with an kit.OpenPane, FocusPane or ClosePane carrying the call,
// applied here as one change.

var pluginHandlers = map[string]handler{
	"plugin.action.invoke": (*Session).pluginForward,
	"plugin.pane.open":     (*Session).pluginForward,
	"plugin.pane.focus":    (*Session).pluginPaneForward,
	"plugin.pane.close":    (*Session).pluginPaneForward,
	"popup.open":           (*Session).popupForward,
}

// pluginForward completes a plugin action's or pane's context and hands
// the call to the plugins actor. An action's context that names what
// does not exist fails; a pane's is left empty.
func (s *Session) pluginForward(ctx actor.Context, call *kit.Call) *kit.Reply {
	if s.opts.Plugins == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
	}
	c := protocol.PluginInvocationContext{}
	switch prm := call.Params.(type) {
	case *protocol.PluginActionInvokeParams:
		if prm.Context != nil {
			c = *prm.Context
		}
		if err := s.fillContext(&c); err != nil {
			return kit.Fail(err)
		}
		fillPtr(&c.InvocationSource, "api")
		fillPtr(&c.CorrelationID, call.ID)
	case *protocol.PluginPaneOpenParams:
		// That of the pane it is opened beside, or of the workspace it is opened in.
		c = protocol.PluginInvocationContext{WorkspaceID: prm.WorkspaceID, FocusedPaneID: prm.TargetPaneID}
		if s.fillContext(&c) != nil {
			c = protocol.PluginInvocationContext{}
		}
		c.InvocationSource, c.CorrelationID = protocol.Ptr("api"), protocol.Ptr("plugin-pane")
	}
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.Invoke{Call: call, Context: c, Cols: s.m.Area().W, Rows: s.m.Area().H}, ctx.Sender())
	return nil
}

// pluginPaneForward resolves the pane plugin.pane.focus|close names; the
// plugins actor knows whether it is a plugin pane.
func (s *Session) pluginPaneForward(ctx actor.Context, call *kit.Call) *kit.Reply {
	id := call.Params.(*protocol.PluginPaneTarget).PaneID
	p, err := s.resolvePane(id)
	if err != nil || s.opts.Plugins == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePluginPaneNotFound, "%s is not a plugin pane", id))
	}
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.Invoke{Call: call, TermID: p.TermID()}, ctx.Sender())
	return nil
}

// popupForward hands popup.open ([[keys.command]] type popup) to the
// clients actor, which owns the popup, with the focused pane's context.
func (s *Session) popupForward(ctx actor.Context, call *kit.Call) *kit.Reply {
	if s.opts.Clients == nil {
		return kit.Fail(protocol.Errorf(protocol.CodePopupOpenFailed, "popups are not drawn by this server"))
	}
	c := protocol.PluginInvocationContext{}
	_ = s.fillContext(&c) // it names nothing, so nothing is missing
	ctx.RequestWithCustomSender(s.opts.Clients, &clients.PopupOpen{Call: call, Context: c, Cols: s.m.Area().W, Rows: s.m.Area().H}, ctx.Sender())
	return nil
}

func fillPtr(dst **string, v string) {
	if *dst == nil && v != "" {
		*dst = protocol.Ptr(v)
	}
}

// fillContext completes a plugin context with what the caller left out:
// the workspace (the focused one unless named), its active tab and focused
// pane. A caller that names the pane (a link click names the pane clicked)
// gets that pane's tab, workspace, cwd and agent.
func (s *Session) fillContext(c *protocol.PluginInvocationContext) error {
	w := s.m.Focused()
	var p *paneRec
	if c.FocusedPaneID != nil {
		if named, err := s.resolvePane(*c.FocusedPaneID); err == nil {
			p, w = named, named.WS()
		}
	}
	if c.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*c.WorkspaceID); err != nil {
			return err
		}
	}
	if w == nil {
		return nil
	}
	info := s.workspaceInfo(w)
	c.WorkspaceID = protocol.Ptr(w.ID())
	fillPtr(&c.WorkspaceLabel, info.Label)
	fillPtr(&c.WorkspaceCwd, w.Cwd())
	if c.Worktree == nil {
		c.Worktree = w.Worktree()
	}
	t := w.Active()
	if p != nil && p.WS() == w {
		t = p.Tab()
	}
	if t != nil && c.TabID == nil {
		c.TabID = protocol.Ptr(t.ID())
		fillPtr(&c.TabLabel, s.tabInfo(t).Label)
	}
	if p == nil && c.FocusedPaneID == nil && t != nil {
		p = s.terms[t.Focused()]
	}
	if p != nil {
		fillPtr(&c.FocusedPaneID, p.ID())
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

// overlay is what the session keeps of an overlay pane: the pane focused
// before it and whether its tab was zoomed, given back when it goes.
type overlay struct {
	prevFocus  string // terminal id
	prevZoomed bool
}

// openPane opens a pane another actor asked for, as a split, a zoomed
// split, an overlay or a tab, and tells its owner the pane's terminal.
func (s *Session) openPane(ctx actor.Context, m *kit.OpenPane) *kit.Reply {
	failed := func(err error) *kit.Reply {
		if m.FailCode == "" {
			return kit.Fail(err)
		}
		return kit.Fail(protocol.Errorf(m.FailCode, "%s", protocol.AsError(err).Message))
	}
	setup := paneSetup{cwd: m.Cwd, env: m.Env, command: m.Argv, label: m.Label}
	var p *paneRec
	var err error
	var over *overlay
	switch m.Where {
	case kit.OpenSplit, kit.OpenZoomed:
		src, err := s.orFocused(m.PaneID)
		if m.PaneID == nil && m.WorkspaceID != nil {
			var w *workspace
			if w, err = s.m.ResolveWorkspace(*m.WorkspaceID); err == nil {
				src = s.terms[w.Active().Focused()]
			}
		}
		if err != nil {
			return kit.Fail(err)
		}
		dir := layout.SplitRight
		if m.Direction != nil {
			dir = layout.Direction(*m.Direction)
		}
		if p, err = s.splitPane(ctx, src, dir, 0.5, setup); err != nil {
			return failed(err)
		}
		if m.Where == kit.OpenZoomed {
			s.tx.FocusInTab(p.Tab(), p.TermID(), true)
			s.relayout(ctx, p.Tab())
		}
	case kit.OpenTab:
		w := s.m.Focused()
		if m.WorkspaceID != nil {
			if w, err = s.m.ResolveWorkspace(*m.WorkspaceID); err != nil {
				return kit.Fail(err)
			}
		}
		if w == nil {
			return kit.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first"))
		}
		t, err := s.newTab(ctx, w, "", setup)
		if err != nil {
			return failed(err)
		}
		p = s.terms[t.Focused()]
		s.emitCreated(nil, t, nil)
		s.emitWorkspaceUpdated(w)
	default: // an overlay: over the focused pane, which gets focus back after
		src := s.focusedPane()
		if src == nil {
			return kit.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane"))
		}
		over = &overlay{prevFocus: src.TermID(), prevZoomed: src.Tab().Zoomed()}
		if p, err = s.splitPane(ctx, src, layout.SplitRight, 0.5, setup); err != nil {
			return failed(err)
		}
		s.tx.FocusInTab(p.Tab(), p.TermID(), true)
		s.relayout(ctx, p.Tab())
	}
	if m.Focus || m.Where == kit.OpenZoomed || over != nil {
		s.tx.FocusPane(p.Pane)
	}
	s.emitCreated(nil, nil, p)
	if over != nil {
		if s.overlays == nil {
			s.overlays = map[string]overlay{}
		}
		s.overlays[p.TermID()] = *over
		s.tx.undo(overlayBack{id: p.TermID()})
	}
	if m.Owner != nil {
		ctx.Send(m.Owner, &kit.PaneOpened{Tag: m.Tag, TermID: p.TermID(), PID: p.pid})
	}
	return kit.Done(answerOf(m.Answer, s.paneInfo(p)))
}

func answerOf(answer func(protocol.PaneInfo) protocol.Result, info protocol.PaneInfo) protocol.Result {
	if answer == nil {
		return protocol.PaneInfoResult{Pane: info}
	}
	return answer(info)
}

// ownedPane is the pane of an owner's FocusPane or ClosePane, or the
// error to answer when it is gone.
func (s *Session) ownedPane(termID string, notFound error) (*paneRec, error) {
	if p := s.terms[termID]; p != nil {
		return p, nil
	}
	if notFound == nil {
		notFound = protocol.Errorf(protocol.CodePaneNotFound, "pane closed")
	}
	return nil, notFound
}

func (s *Session) focusPane(m *kit.FocusPane) *kit.Reply {
	p, err := s.ownedPane(m.TermID, m.NotFound)
	if err != nil {
		return kit.Fail(err)
	}
	s.tx.FocusPane(p.Pane)
	return kit.Done(answerOf(m.Answer, s.paneInfo(p)))
}

func (s *Session) closeOwnedPane(ctx actor.Context, m *kit.ClosePane) *kit.Reply {
	p, err := s.ownedPane(m.TermID, m.NotFound)
	if err != nil {
		return kit.Fail(err)
	}
	info := s.paneInfo(p)
	s.closePane(ctx, p)
	return kit.Done(answerOf(m.Answer, info))
}

// giveFocusBack forgets a closing overlay. One still focused in its tab
// gives focus back to the pane it covered, and the tab its zoom, before
// its leaf is taken out.
func (s *Session) giveFocusBack(p *paneRec) {
	o, ok := s.overlays[p.TermID()]
	if ok {
		delete(s.overlays, p.TermID())
		s.tx.undo(overlayBack{id: p.TermID(), o: o, had: true})
	}
	if !ok || p.Tab().Focused() != p.TermID() {
		return
	}
	if prev := s.terms[o.prevFocus]; prev != nil && prev.Tab() == p.Tab() {
		s.tx.FocusInTab(p.Tab(), prev.TermID(), o.prevZoomed)
	}
}
