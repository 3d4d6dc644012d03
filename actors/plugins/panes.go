package plugins

import (
	"encoding/json"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/kit"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// Plugin panes: the actor resolves a pane entrypoint and keeps which
// terminal runs which entrypoint; the session opens, focuses and closes
// the pane (kit.OpenPane, FocusPane, ClosePane) and answers the caller.
// A popup is no pane: it goes to the clients actor, which owns it.
// A plugin pane is forgotten when its pane's actor stops, however the
// pane went (plugin.pane.close, pane.close, its program exiting).

// pluginPane is what the actor keeps of a plugin's pane.
type pluginPane struct {
	pluginID, entrypoint string
	pid                  *actor.PID
}

// forwarded answers a call the session forwarded.
func (p *Plugins) forwarded(ctx actor.Context, m *Invoke) *kit.Reply {
	switch m.Call.Method {
	case "plugin.pane.open":
		return p.paneOpen(ctx, m)
	case "plugin.pane.focus", "plugin.pane.close":
		return p.paneAct(ctx, m)
	case "pane.link.activate":
		return p.linkActivate(ctx, m) // links.go
	}
	return p.invoke(ctx, m)
}

// paneOpen resolves a pane entrypoint and asks the session to open it
// (the clients actor, for a popup), which answers the caller.
func (p *Plugins) paneOpen(ctx actor.Context, m *Invoke) *kit.Reply {
	call := m.Call
	prm := call.Params.(*protocol.PluginPaneOpenParams)
	pl, err := p.find(prm.PluginID)
	if err != nil {
		return kit.Fail(err)
	}
	var entry *protocol.PluginManifestPane
	for i := range pl.Panes {
		if pl.Panes[i].ID == prm.Entrypoint || pl.PluginID+"."+pl.Panes[i].ID == prm.Entrypoint {
			entry = &pl.Panes[i]
		}
	}
	switch {
	case entry == nil:
		return kit.Fail(protocol.Errorf(protocol.CodePluginPaneNotFound, "plugin %s has no pane %s", pl.PluginID, prm.Entrypoint))
	case !pl.Enabled:
		return kit.Fail(protocol.Errorf(protocol.CodePluginDisabled, "plugin %s is disabled", pl.PluginID))
	case !plug.RunsHere(pl.Platforms, entry.Platforms):
		return kit.Fail(protocol.Errorf(protocol.CodePlatformUnsupported, "pane %s.%s does not run on %s", pl.PluginID, entry.ID, plug.ThisPlatform()))
	case p.session == nil:
		return kit.Fail(protocol.Errorf(protocol.CodeServerUnavailable, "the session is not ready"))
	}
	placement := entry.Placement
	if prm.Placement != nil {
		placement = *prm.Placement
	}
	if err := checkPlacement(placement, prm); err != nil {
		return kit.Fail(err)
	}
	width, height, err := popupSizes(prm, entry)
	if err != nil {
		return kit.Fail(err)
	}
	cwd := pl.PluginRoot
	if prm.Cwd != nil {
		cwd = *prm.Cwd
	}
	// The caller's variables first: those herdr sets for plugins win,
	// with the context of where the pane opens.
	env := map[string]string{}
	for k, v := range prm.Env {
		env[k] = v
	}
	env["HERDR_PLUGIN_ENTRYPOINT_ID"] = entry.ID
	ctxJSON, _ := json.Marshal(m.Context)
	for _, kv := range p.runtimeEnv(pl, nil, string(ctxJSON)) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	if placement == "popup" {
		switch {
		case p.opts.Clients == nil:
			return kit.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "popups are not drawn by this server"))
		case m.Context.WorkspaceID == nil:
			return kit.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "no active workspace"))
		}
		ctx.RequestWithCustomSender(p.opts.Clients, &clients.OpenPopup{Call: call, Title: entry.Title, Width: width, Height: height,
			Argv: entry.Command, Cwd: cwd, Env: env, Cols: m.Cols, Rows: m.Rows, FailCode: protocol.CodePluginPaneOpenFailed}, ctx.Sender())
		return nil
	}
	pluginID, entrypoint := pl.PluginID, entry.ID
	ctx.RequestWithCustomSender(p.session, &kit.OpenPane{Call: call, Where: placement, PaneID: prm.TargetPaneID, WorkspaceID: prm.WorkspaceID,
		Direction: prm.Direction, Argv: entry.Command, Env: env, Cwd: cwd, Label: entry.Title, Focus: prm.Focus,
		FailCode: protocol.CodePluginPaneOpenFailed, Owner: ctx.Self(), Tag: pluginPane{pluginID: pluginID, entrypoint: entrypoint},
		Answer: func(pane protocol.PaneInfo) protocol.Result {
			return protocol.PluginPaneOpened{PluginPane: protocol.PluginPaneInfo{PluginID: pluginID, Entrypoint: entrypoint, Pane: pane}}
		}}, ctx.Sender())
	return nil
}

// paneOpened records which terminal runs a plugin's pane, and watches its
// actor to forget it when the pane goes.
func (p *Plugins) paneOpened(ctx actor.Context, m *kit.PaneOpened) {
	pp, ok := m.Tag.(pluginPane)
	if !ok || m.PID == nil {
		return
	}
	if p.panes == nil {
		p.panes = map[string]pluginPane{}
	}
	pp.pid = m.PID
	p.panes[m.TermID] = pp
	ctx.Watch(m.PID)
}

// paneGone forgets the plugin pane whose actor stopped.
func (p *Plugins) paneGone(who *actor.PID) {
	for id, pp := range p.panes {
		if pp.pid.Equal(who) {
			delete(p.panes, id)
			return
		}
	}
}

// paneAct asks the session to focus or close a plugin pane; a pane that
// is none (or is gone by the time the session gets the ask) answers
// plugin_pane_not_found.
func (p *Plugins) paneAct(ctx actor.Context, m *Invoke) *kit.Reply {
	id := m.Call.Params.(*protocol.PluginPaneTarget).PaneID
	notFound := protocol.Errorf(protocol.CodePluginPaneNotFound, "%s is not a plugin pane", id)
	pp, ok := p.panes[m.TermID]
	if !ok || p.session == nil {
		return kit.Fail(notFound)
	}
	if m.Call.Method == "plugin.pane.close" {
		ctx.RequestWithCustomSender(p.session, &kit.ClosePane{Call: m.Call, TermID: m.TermID, NotFound: notFound,
			Answer: func(pane protocol.PaneInfo) protocol.Result { return protocol.PluginPaneClosed{PaneID: pane.PaneID} }}, ctx.Sender())
		return nil
	}
	ctx.RequestWithCustomSender(p.session, &kit.FocusPane{Call: m.Call, TermID: m.TermID, NotFound: notFound,
		Answer: func(pane protocol.PaneInfo) protocol.Result {
			return protocol.PluginPaneFocused{PluginPane: protocol.PluginPaneInfo{PluginID: pp.pluginID, Entrypoint: pp.entrypoint, Pane: pane}}
		}}, ctx.Sender())
	return nil
}
