package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// [[keys.command]]: a prefix key that runs a command. "shell" runs it
// detached (its output is dropped), "pane" in a zoomed pane that closes
// when it ends, "popup" in the session's popup (popup.open; it closes when
// the command ends), "plugin_action" invokes a plugin's action. The
// command sees HERDR_SOCKET_PATH, HERDR_BIN_PATH and the active
// workspace, tab and pane.

// bindCommands adds the commands to the keymap; it returns problems.
func (km *keymap) bindCommands(cmds []config.KeyCommand) []string {
	var diags []string
	for i, c := range cmds {
		for _, combo := range c.Key {
			rest, ok := cutFold(combo, "prefix+")
			if !ok {
				diags = append(diags, fmt.Sprintf("keys.command[%d].key: %q is not a prefix binding; this client binds commands after the prefix only (prefix+…); ignored", i, combo))
				continue
			}
			k, err := teaKeyName(rest)
			if err != nil {
				diags = append(diags, fmt.Sprintf("keys.command[%d].key: %v", i, err))
				continue
			}
			if km.commands == nil {
				km.commands = map[string]config.KeyCommand{}
			}
			km.commands[k] = c
		}
	}
	return diags
}

// commandDone is the end of a shell command.
type commandDone struct {
	command string
	err     error
}

// keyCommands runs the [[keys.command]]s as a component: what it reads
// of where the person is and the requests it makes go through
// keyCommandHost (a fake in tests).
type keyCommands struct{ h keyCommandHost }

// keyCommandHost is what the key commands need of the client.
type keyCommandHost interface {
	focusedPaneID() string
	paneInfo(id string) (protocol.PaneInfo, bool)
	// socketPath is the session's socket, for HERDR_SOCKET_PATH.
	socketPath() string
	// context ends the commands when the client exits.
	context() context.Context
	flushInput()
	send(method string, params any)
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	toast(text string) tea.Cmd
}

// run runs a [[keys.command]].
func (kc keyCommands) run(c config.KeyCommand) tea.Cmd {
	kc.h.flushInput()
	p, _ := kc.h.paneInfo(kc.h.focusedPaneID())
	switch c.Type {
	case "plugin_action":
		kc.h.send("plugin.action.invoke", protocol.PluginActionInvokeParams{ActionID: c.Command})
	case "pane":
		return kc.inPane(c.Command, p)
	case "popup":
		// The server runs it with the same HERDR_ACTIVE_* the client
		// would give it.
		kc.h.send("popup.open", protocol.PopupOpenParams{Command: c.Command, Width: popupSize(c.Width), Height: popupSize(c.Height)})
	default:
		env := append(os.Environ(), kc.env(p)...)
		ctx := kc.h.context()
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
			defer cancel()
			argv := shellArgv(c.Command, true)
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = env
			return commandDone{command: c.Command, err: cmd.Run()}
		}
	}
	return nil
}

// popupSize is a key command's width or height as popup.open takes it:
// a number of cells, "N%", or nil when unset (config checked its form).
func popupSize(s string) any {
	if s == "" {
		return nil
	}
	if strings.HasSuffix(s, "%") {
		return s
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return s // the server says what is wrong with it
}

// env is what a command learns of where the person is.
func (kc keyCommands) env(p protocol.PaneInfo) []string {
	bin, _ := os.Executable()
	env := []string{"HERDR_SOCKET_PATH=" + kc.h.socketPath(), "HERDR_BIN_PATH=" + bin, "HERDR_ACTIVE_PANE_ID=" + p.PaneID,
		"HERDR_ACTIVE_TAB_ID=" + p.TabID, "HERDR_ACTIVE_WORKSPACE_ID=" + p.WorkspaceID}
	if p.Cwd != nil {
		env = append(env, "HERDR_ACTIVE_PANE_CWD="+*p.Cwd)
	}
	return env
}

// inPane splits the focused pane, zooms the new one and runs the
// command in it with exec, so the pane closes when the command ends.
func (kc keyCommands) inPane(command string, p protocol.PaneInfo) tea.Cmd {
	call := kc.h.rpc()
	if call == nil {
		return nil // no server to open the pane in
	}
	env := map[string]string{}
	for _, kv := range kc.env(p) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	env[keyCommandEnv] = command
	return func() tea.Msg {
		var res protocol.PaneInfoResult
		prm := protocol.PaneSplitParams{Direction: "down", Focus: true, Env: env, Cwd: p.Cwd}
		if p.PaneID != "" {
			prm.TargetPaneID = &p.PaneID
		}
		if err := call("pane.split", prm, &res); err != nil {
			return commandDone{command: command, err: err}
		}
		id := res.Pane.PaneID
		err := call("pane.zoom", protocol.PaneZoomParams{PaneID: &id, Mode: "on"}, nil)
		if err == nil {
			err = call("pane.send_text", protocol.PaneSendTextParams{PaneID: id, Text: runKeyCommand}, nil)
		}
		return commandDone{command: command, err: err}
	}
}

// runKeyCommand is what inPane types into the new pane's shell: the
// command itself travels in the pane's environment, so nothing of it is
// quoted for a shell the client cannot see (fish reads \\ and \' inside
// single quotes, which POSIX quoting leaves as they are); this line means
// the same in sh, bash, zsh and fish.
const runKeyCommand = `exec /bin/sh -c "$` + keyCommandEnv + `"` + "\r"

// keyCommandEnv names the variable that carries a pane key command.
const keyCommandEnv = "HERDR_KEY_COMMAND"

// finished says when a command failed.
func (kc keyCommands) finished(msg commandDone) tea.Cmd {
	if msg.err == nil {
		return nil
	}
	return kc.h.toast("keys.command " + msg.command + ": " + msg.err.Error())
}
