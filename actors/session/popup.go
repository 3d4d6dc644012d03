package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// openPopup hands a plugin's popup to the clients actor, which owns it
// and answers the caller. The session adds what only it knows: the
// context of the active workspace and pane (the popup leaves the plugin's
// focus on the tiled pane under it), and the tab area it is sized in.
func (s *Session) openPopup(ctx actor.Context, m *plugins.OpenPane) *api.Reply {
	if s.opts.Clients == nil {
		return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "popups are not drawn by this server"))
	}
	if s.m.Focused == nil {
		return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "no active workspace"))
	}
	if _, err := s.argv(paneSetup{command: m.Argv}); err != nil {
		return api.Fail(protocol.Errorf(protocol.CodePluginPaneOpenFailed, "%s", protocol.AsError(err).Message))
	}
	cwd, err := s.checkCwd(&m.Cwd, "")
	if err != nil {
		return api.Fail(err)
	}
	env := s.withContext(m.Env, &protocol.PluginPaneOpenParams{})
	ctx.RequestWithCustomSender(s.opts.Clients, &clients.OpenPopup{
		Call: m.Call, Title: m.Title, Width: m.Width, Height: m.Height, Argv: m.Argv, Cwd: cwd,
		Env: s.popupEnv(env), Cols: s.m.Area.W, Rows: s.m.Area.H,
		ScrollbackBytes: s.cfg.Advanced.ScrollbackLimitBytes, Log: s.opts.Log,
	}, ctx.Sender())
	return nil
}

var popupHandlers = map[string]handler{
	"popup.open": (*Session).popupOpen,
}

// popupOpen runs a command line in a popup ([[keys.command]] type popup):
// the platform shell runs it in the focused pane's folder, with the
// HERDR_ACTIVE_* variables a key command sees, and the clients actor
// owns the popup and answers (ui_busy while one is open).
func (s *Session) popupOpen(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PopupOpenParams)
	if s.opts.Clients == nil {
		return api.Fail(protocol.Errorf(protocol.CodePopupOpenFailed, "popups are not drawn by this server"))
	}
	p := s.focusedPane()
	if p == nil {
		return api.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane"))
	}
	argv := shellCommand(prm.Command)
	if _, err := s.argv(paneSetup{command: argv}); err != nil {
		return api.Fail(protocol.Errorf(protocol.CodePopupOpenFailed, "%s", protocol.AsError(err).Message))
	}
	here := p.Cwd
	if p.facts.ForegroundCwd != "" {
		here = p.facts.ForegroundCwd
	}
	cwd, err := s.checkCwd(prm.Cwd, here)
	if err != nil {
		return api.Fail(err)
	}
	env := map[string]string{}
	for k, v := range prm.Env {
		env[k] = v
	}
	for k, v := range map[string]string{"HERDR_ACTIVE_WORKSPACE_ID": p.WS.ID, "HERDR_ACTIVE_TAB_ID": p.Tab.ID,
		"HERDR_ACTIVE_PANE_ID": p.ID, "HERDR_ACTIVE_PANE_CWD": here} {
		env[k] = v
	}
	width, height := prm.Sizes()
	ctx.RequestWithCustomSender(s.opts.Clients, &clients.OpenPopup{
		Call: call, Title: prm.Title, Width: width, Height: height, Argv: argv, Cwd: cwd,
		Env: s.popupEnv(env), Cols: s.m.Area.W, Rows: s.m.Area.H,
		ScrollbackBytes: s.cfg.Advanced.ScrollbackLimitBytes, Log: s.opts.Log, FailCode: protocol.CodePopupOpenFailed,
	}, ctx.Sender())
	return nil
}

// popupEnv is a popup's environment: the server's, then the plugin's,
// then herdr's own terminal variables; no HERDR_PANE_ID (a popup is no
// pane) and, as in Herdr, no workspace or tab id either (the context JSON
// has them).
func (s *Session) popupEnv(extra map[string]string) []string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	for k, v := range extra {
		env[k] = v
	}
	for _, k := range []string{"CODEX_THREAD_ID", "HERDR_PANE_ID"} {
		delete(env, k)
	}
	if dir := filepath.Dir(s.opts.BinPath); s.opts.BinPath != "" && !slices.Contains(filepath.SplitList(env["PATH"]), dir) {
		env["PATH"] = dir + string(filepath.ListSeparator) + env["PATH"]
	}
	for k, v := range map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor", "HERDR_ENV": "1",
		"HERDR_SOCKET_PATH": s.opts.SocketPath, "HERDR_BIN_PATH": s.opts.BinPath} {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// contextJSON is a plugin context as HERDR_PLUGIN_CONTEXT_JSON carries it.
func contextJSON(c protocol.PluginInvocationContext) string {
	b, _ := json.Marshal(c)
	return string(b)
}
