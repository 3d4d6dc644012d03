package plugins

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// command.invoke comes here from the session as a Command: its context
// resolved, its selection read, its [[keys.command]] entry looked up. A
// plugin action (a key command of type plugin_action, or an id that names
// no key command) runs here, as does a shell key command (detached); a
// popup opens in the clients actor, a pane through the session, as a
// zoomed split of the pane named that closes when its command ends. Each
// answers ok. A selection reaches a plugin action as its context's
// selected_text and a shell, pane or popup command as HERDR_SELECTED_TEXT.

// Command is command.invoke, ready to run: Key is its [[keys.command]]
// entry (nil: the id names a plugin action), Cols and Rows the session's
// area (a popup's geometry).
type Command struct {
	Call       *kit.Call
	Context    protocol.PluginInvocationContext
	Key        *config.KeyCommand
	Cols, Rows int
}

// CarriedCall implements kit.CallCarrier.
func (m *Command) CarriedCall() *kit.Call { return m.Call }

// maxSelectedText bounds the selection a command is given: it travels in
// an environment variable, which the system bounds too.
const maxSelectedText = 128 << 10

// command runs a Command (see there).
func (p *Plugins) command(ctx actor.Context, m *Command) *kit.Reply {
	c, kc := m.Context, m.Key
	if sel := c.SelectedText; sel != nil && len(*sel) > maxSelectedText {
		return kit.Fail(protocol.ParamError("selection", "the selection holds %d bytes; a command takes at most %d", len(*sel), maxSelectedText))
	}
	if kc == nil || kc.Type == "plugin_action" {
		inv := &Invoke{Call: m.Call, Context: c, ActionID: m.Call.Params.(*protocol.CommandInvokeParams).CommandID, ByID: true}
		if kc != nil {
			inv.ActionID, inv.ByID = kc.Command, false
		}
		return p.invokeCommand(ctx, inv)
	}
	if c.FocusedPaneID == nil || c.TabID == nil || c.WorkspaceID == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane for key command %s; create a workspace first", kc.ID))
	}
	cwd := ""
	if c.FocusedPaneCwd != nil {
		cwd = *c.FocusedPaneCwd
	}
	env := map[string]string{"HERDR_ACTIVE_WORKSPACE_ID": *c.WorkspaceID, "HERDR_ACTIVE_TAB_ID": *c.TabID,
		"HERDR_ACTIVE_PANE_ID": *c.FocusedPaneID, "HERDR_ACTIVE_PANE_CWD": cwd}
	if c.SelectedText != nil {
		env["HERDR_SELECTED_TEXT"] = *c.SelectedText
	}
	switch kc.Type {
	case "popup":
		if p.opts.Clients == nil {
			return kit.Fail(protocol.Errorf(protocol.CodePopupOpenFailed, "popups are not drawn by this server"))
		}
		open := &kit.Call{ID: m.Call.ID, Method: "popup.open", Params: &protocol.PopupOpenParams{Command: kc.Command, Env: env, Width: popupSize(kc.Width), Height: popupSize(kc.Height)}}
		ctx.RequestWithCustomSender(p.opts.Clients, &clients.PopupOpen{Call: open, Context: c, Cols: m.Cols, Rows: m.Rows}, ctx.Sender())
		return nil
	case "pane":
		if p.session == nil {
			return kit.Fail(protocol.Errorf(protocol.CodeNotImplemented, "no session to open the pane in"))
		}
		ctx.RequestWithCustomSender(p.session, &kit.OpenPane{Call: m.Call, Where: kit.OpenZoomed, PaneID: c.FocusedPaneID, Direction: protocol.Ptr("down"),
			Argv: ShellArgv(kc.Command), Env: env, Cwd: cwd, Focus: true,
			Answer: func(protocol.PaneInfo) protocol.Result { return protocol.OK{} }}, ctx.Sender())
		return nil
	}
	envList := make([]string, 0, len(env))
	for k, v := range env {
		envList = append(envList, k+"="+v)
	}
	return p.runShell(ctx, ShellArgv(kc.Command), cwd, envList)
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

// keyCommandTimeout bounds a shell key command, as the client bounds the
// ones it runs itself.
const keyCommandTimeout = 10 * time.Minute

// shellDone brings a finished shell key command back to the actor.
type shellDone struct {
	cmd     *plug.Command
	command string
	out     plug.Outcome
}

// runShell runs a shell key command detached, a child of the server in its
// own process group (killed when the server stops), on a goroutine; the
// call is answered ok once it started, its output is dropped as the
// client drops it.
func (p *Plugins) runShell(ctx actor.Context, argv []string, dir string, extra []string) *kit.Reply {
	env := append(os.Environ(), "HERDR_ENV=1", "HERDR_SOCKET_PATH="+p.opts.SocketPath, "HERDR_BIN_PATH="+p.opts.BinPath)
	cmd := plug.NewCommand(plug.Job{Argv: argv, Dir: dir, Env: append(env, extra...), Records: p.opts.Records}, keyCommandTimeout)
	if p.shells == nil {
		p.shells = map[*plug.Command]bool{}
	}
	p.shells[cmd] = true
	root, self, line := ctx.ActorSystem().Root, ctx.Self(), argv[len(argv)-1]
	go func() { root.Send(self, &shellDone{cmd: cmd, command: line, out: cmd.Run()}) }()
	return kit.OK()
}

func (p *Plugins) shellFinished(m *shellDone) {
	delete(p.shells, m.cmd)
	if m.out.Err != "" || m.out.ExitCode == nil || *m.out.ExitCode != 0 {
		p.opts.Log.Warn("key command failed", "command", m.command, "exit", m.out.ExitCode, "err", m.out.Err)
	}
}

// invokeCommand runs the plugin action command.invoke named (by a key
// command, or by its own id) and answers ok; an id that is no plugin
// action either answers command_not_found.
func (p *Plugins) invokeCommand(ctx actor.Context, m *Invoke) *kit.Reply {
	pl, a, err := p.resolveAction(m.ActionID, nil)
	if err != nil {
		if m.ByID && protocol.AsError(err).Code == protocol.CodePluginActionNotFound {
			return kit.Fail(protocol.Errorf(protocol.CodeCommandNotFound, "no key command or plugin action has the id %s", m.ActionID))
		}
		return kit.Fail(err)
	}
	if reply := p.run(ctx, pl, a, m.Context); reply.Err != nil {
		return reply
	}
	return kit.OK()
}
