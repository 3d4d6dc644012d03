package session

import (
	"strconv"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// command.invoke is the session's because only it knows both halves of
// the call: the [[keys.command]] entries of the config it holds (reloaded
// by server.reload_config) and the workspace, tab and pane the command
// runs with. It resolves those, then each type runs where such things run
// already: a plugin action (type plugin_action, or an id no key command
// has) and a shell command in the plugins actor, a popup in the clients
// actor (popup.open), a pane here, as a zoomed split of the pane named
// that closes when its command ends. Each answers ok.
var commandHandlers = map[string]handler{
	"command.invoke": (*Session).commandInvoke,
}

// A selection is read first: its pane reads the text and passes it back
// (pane.ReadSelection, pane.SelectionRead), and runCommand goes on with it
// as the selected text.
func (s *Session) commandInvoke(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	if prm.Selection == nil {
		return s.runCommand(ctx, call, nil)
	}
	if _, err := s.commandContext(prm); err != nil {
		return api.Fail(err)
	}
	p, err := s.resolvePane(prm.Selection.PaneID)
	if err != nil {
		return api.Fail(err)
	}
	ctx.RequestWithCustomSender(p.pid, &pane.ReadSelection{Call: call, Selection: *prm.Selection}, ctx.Sender())
	return nil
}

// maxSelectedText bounds the selection a command is given: it travels in
// an environment variable, which the system bounds too.
const maxSelectedText = 128 << 10

// runCommand runs command.invoke's command once its selection (if any)
// was read. The text reaches a plugin action as its context's
// selected_text and a shell, pane or popup command as
// HERDR_SELECTED_TEXT.
func (s *Session) runCommand(ctx actor.Context, call *api.Call, selected *string) *api.Reply {
	prm := call.Params.(*protocol.CommandInvokeParams)
	c, err := s.commandContext(prm)
	if err != nil {
		return api.Fail(err)
	}
	if selected != nil && len(*selected) > maxSelectedText {
		return api.Fail(protocol.ParamError("selection", "the selection holds %d bytes; a command takes at most %d", len(*selected), maxSelectedText))
	}
	c.SelectedText = selected
	fillPtr(&c.InvocationSource, "api")
	fillPtr(&c.CorrelationID, call.ID)
	var kc *config.KeyCommand
	for i := range s.cfg.Keys.Commands {
		if s.cfg.Keys.Commands[i].ID == prm.CommandID {
			kc = &s.cfg.Keys.Commands[i]
		}
	}
	if kc == nil || kc.Type == "plugin_action" {
		if s.opts.Plugins == nil {
			return api.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
		}
		inv := &plugins.Invoke{Call: call, Context: c, ActionID: prm.CommandID, ByID: true}
		if kc != nil {
			inv.ActionID, inv.ByID = kc.Command, false
		}
		ctx.RequestWithCustomSender(s.opts.Plugins, inv, ctx.Sender())
		return nil
	}
	if c.FocusedPaneID == nil || c.TabID == nil || c.WorkspaceID == nil {
		return api.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane for key command %s; create a workspace first", kc.ID))
	}
	cwd := ""
	if c.FocusedPaneCwd != nil {
		cwd = *c.FocusedPaneCwd
	}
	env := map[string]string{"HERDR_ACTIVE_WORKSPACE_ID": *c.WorkspaceID, "HERDR_ACTIVE_TAB_ID": *c.TabID,
		"HERDR_ACTIVE_PANE_ID": *c.FocusedPaneID, "HERDR_ACTIVE_PANE_CWD": cwd}
	if selected != nil {
		env["HERDR_SELECTED_TEXT"] = *selected
	}
	switch kc.Type {
	case "popup":
		if s.opts.Clients == nil {
			return api.Fail(protocol.Errorf(protocol.CodePopupOpenFailed, "popups are not drawn by this server"))
		}
		open := &api.Call{ID: call.ID, Method: "popup.open", Params: &protocol.PopupOpenParams{Command: kc.Command, Env: env, Width: popupSize(kc.Width), Height: popupSize(kc.Height)}}
		ctx.RequestWithCustomSender(s.opts.Clients, &clients.PopupOpen{Call: open, Context: c, Cols: s.m.Area.W, Rows: s.m.Area.H}, ctx.Sender())
		return nil
	case "pane":
		return s.openPane(ctx, &api.OpenPane{Call: call, Where: api.OpenZoomed, PaneID: c.FocusedPaneID, Direction: protocol.Ptr("down"),
			Argv: plugins.ShellArgv(kc.Command), Env: env, Cwd: cwd, Focus: true,
			Answer: func(protocol.PaneInfo) protocol.Result { return protocol.OK{} }})
	}
	if s.opts.Plugins == nil {
		return api.Fail(protocol.Errorf(protocol.CodeNotImplemented, "plugins are not running in this server"))
	}
	var envList []string
	for k, v := range env {
		envList = append(envList, k+"="+v)
	}
	ctx.RequestWithCustomSender(s.opts.Plugins, &plugins.RunShell{Call: call, Argv: plugins.ShellArgv(kc.Command), Dir: cwd, Env: envList}, ctx.Sender())
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

// popupSize is a key command's width or height as popup.open takes it:
// cells, "N%", or nil when unset (config checked its form).
func popupSize(v string) any {
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	if v == "" || !strings.HasSuffix(v, "%") {
		return nil
	}
	return v
}
