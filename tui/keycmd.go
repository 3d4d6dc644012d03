package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

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

// runCommand runs a [[keys.command]].
func (m *model) runCommand(c config.KeyCommand) tea.Cmd {
	m.flushInput()
	p, _ := m.paneInfo(m.focusedPaneID())
	switch c.Type {
	case "plugin_action":
		m.call("plugin.action.invoke", protocol.PluginActionInvokeParams{ActionID: c.Command})
	case "pane":
		return m.commandPane(c.Command, p)
	case "popup":
		// The server runs it with the same HERDR_ACTIVE_* the client
		// would give it.
		m.call("popup.open", protocol.PopupOpenParams{Command: c.Command, Width: popupSize(c.Width), Height: popupSize(c.Height)})
	default:
		env := append(os.Environ(), m.commandEnv(p)...)
		ctx := m.ctx
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

// commandEnv is what a command learns of where the person is.
func (m *model) commandEnv(p protocol.PaneInfo) []string {
	bin, _ := os.Executable()
	env := []string{"HERDR_SOCKET_PATH=" + m.socket, "HERDR_BIN_PATH=" + bin, "HERDR_ACTIVE_PANE_ID=" + p.PaneID,
		"HERDR_ACTIVE_TAB_ID=" + p.TabID, "HERDR_ACTIVE_WORKSPACE_ID=" + p.WorkspaceID}
	if p.Cwd != nil {
		env = append(env, "HERDR_ACTIVE_PANE_CWD="+*p.Cwd)
	}
	return env
}

// commandPane splits the focused pane, zooms the new one and runs the
// command in it with exec, so the pane closes when the command ends.
func (m *model) commandPane(command string, p protocol.PaneInfo) tea.Cmd {
	req := m.link.req
	env := map[string]string{}
	for _, kv := range m.commandEnv(p) {
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
		if err := req.call("pane.split", prm, &res); err != nil {
			return commandDone{command: command, err: err}
		}
		id := res.Pane.PaneID
		err := req.call("pane.zoom", protocol.PaneZoomParams{PaneID: &id, Mode: "on"}, nil)
		if err == nil {
			err = req.call("pane.send_text", protocol.PaneSendTextParams{PaneID: id, Text: runKeyCommand}, nil)
		}
		return commandDone{command: command, err: err}
	}
}

// runKeyCommand is what commandPane types into the new pane's shell: the
// command itself travels in the pane's environment, so nothing of it is
// quoted for a shell the client cannot see (fish reads \\ and \' inside
// single quotes, which POSIX quoting leaves as they are); this line means
// the same in sh, bash, zsh and fish.
const runKeyCommand = `exec /bin/sh -c "$` + keyCommandEnv + `"` + "\r"

// keyCommandEnv names the variable that carries a pane key command.
const keyCommandEnv = "HERDR_KEY_COMMAND"

func (m *model) commandFinished(msg commandDone) tea.Cmd {
	if msg.err == nil {
		return nil
	}
	return m.showToast("keys.command " + msg.command + ": " + msg.err.Error())
}
