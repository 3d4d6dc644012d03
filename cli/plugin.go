package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

func (a *app) pluginCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "plugin",
		Short: "Link, enable, list and run plugins",
		Long: `Plugins are folders with a herdr-plugin.toml: actions to invoke, hooks that
run on events (worktree.created, pane.agent_status_changed, …) and at
start-up. Commands run as argv in the plugin's folder, never through a
shell; their runs are kept in the plugin log. With no server running,
link, list, install and uninstall work on the plugin registry file itself.`,
	})

	var disabled bool
	link := &cobra.Command{
		Use:   "link <path> [--disabled]",
		Short: summary("plugin.link"),
		Args:  exactArgs("<path>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if filepath.Base(path) != "herdr-plugin.toml" {
				path = filepath.Join(path, "herdr-plugin.toml")
			}
			enabled := !disabled
			const id = "cli:plugin:link"
			listening, code := a.serverListening(id)
			switch {
			case code != 0:
				return exit(code)
			case !listening:
				info, err := a.linkInRegistry(path, &enabled, nil)
				return exit(a.printResult(id, protocol.PluginLinked{Plugin: info}, err))
			}
			return exit(a.call(id, "plugin.link", protocol.PluginLinkParams{Path: path, Enabled: &enabled}))
		},
	}
	link.Flags().BoolVar(&disabled, "disabled", false, "link it disabled")

	var listPlugin string
	var listJSON bool
	list := jsonFlag(&cobra.Command{
		Use:   "list [--plugin ID] [--json]",
		Short: summary("plugin.list"),
		Long:  summary("plugin.list") + " (from the registry file when no server runs). A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			const id = "cli:plugin:list"
			prm := protocol.PluginListParams{PluginID: opt(cmd, "plugin", listPlugin)}
			show := tableFor(a, listJSON, drawPlugins)
			listening, code := a.serverListening(id)
			switch {
			case code != 0:
				return exit(code)
			case !listening:
				list, err := a.listRegistry(prm.PluginID)
				return exit(a.localList(id, list, err, show))
			}
			return exit(a.request(id, "plugin.list", prm, show))
		},
	}, &listJSON)
	list.Flags().StringVar(&listPlugin, "plugin", "", "only plugin `ID`")

	configDir := &cobra.Command{
		Use:   "config-dir <id>",
		Short: "Print a plugin's config folder",
		Args:  exactArgs("<id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !plugins.ValidID(args[0]) {
				return fmt.Errorf("%s", protocol.Printable(protocol.AsError(plugins.CheckID(args[0])).Message))
			}
			dir, _ := plugins.Dirs(protocol.ConfigDir(a.env), protocol.StateDir(a.env), args[0])
			fmt.Fprintln(a.stdout, dir)
			return nil
		},
	}

	action := a.group(&cobra.Command{Use: "action", Short: "List and invoke plugin actions"})
	var invokePlugin string
	invoke := &cobra.Command{
		Use:   "invoke [<plugin>] <action_id> [--plugin ID]",
		Short: summary("plugin.action.invoke"),
		Long: summary("plugin.action.invoke") + `: the action <action_id>, of the plugin
named first or by --plugin (needed only when two plugins have that action).`,
		Example: `  herdr plugin action invoke my-plugin open-board
  herdr plugin action invoke open-board --plugin my-plugin`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 && cmd.Flags().Changed("plugin") {
				return errors.New("give the plugin as an argument or with --plugin, not both")
			}
			if len(args) > 2 {
				return fmt.Errorf("unexpected argument %q", args[2])
			}
			return minArgs("<action_id>")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			src := "cli"
			plugin := opt(cmd, "plugin", invokePlugin)
			if len(args) == 2 {
				plugin, args = &args[0], args[1:]
			}
			return exit(a.call("cli:plugin:action:invoke", "plugin.action.invoke", protocol.PluginActionInvokeParams{
				ActionID: args[0], PluginID: plugin,
				Context: &protocol.PluginInvocationContext{InvocationSource: &src},
			}))
		},
	}
	invoke.Flags().StringVar(&invokePlugin, "plugin", "", "the action's plugin `ID`")
	action.AddCommand(invoke)

	logs := a.group(&cobra.Command{Use: "log", Short: "Show plugin command runs"})

	// unlink, enable, disable, action list and log list: the table's
	// (cli/fromtable.go).
	cmd.AddCommand(link, list, configDir, action, logs, a.pluginPaneCmd(), a.pluginInstallCmd(), a.pluginUninstallCmd())
	return cmd
}

// pluginPaneCmd is `plugin pane open|focus|close`.
func (a *app) pluginPaneCmd() *cobra.Command {
	group := a.group(&cobra.Command{Use: "pane", Short: "Open, focus and close plugin panes"})
	var (
		plugin, entrypoint, placement, width, height, workspace, target, direction string
		spawn                                                                      spawnFlags
	)
	open := &cobra.Command{
		Use: "open --plugin ID --entrypoint ID [--placement overlay|popup|split|tab|zoomed] [--width S] [--height S] " +
			"[--workspace ID] [--target-pane P] [--direction right|down] [--cwd P] [--env K=V]… [--focus|--no-focus]",
		Short: summary("plugin.pane.open"),
		Long: summary("plugin.pane.open") + `. The pane is focused unless --no-focus
is given. --width and --height size a popup: cells, or a percentage of the
tab area such as 80%.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, f := range []string{"plugin", "entrypoint"} {
				if !cmd.Flags().Changed(f) {
					return fmt.Errorf("missing required --%s", f)
				}
			}
			cwd, env, err := spawn.resolve(a, cmd)
			if err != nil {
				return err
			}
			prm := protocol.PluginPaneOpenParams{
				PluginID: plugin, Entrypoint: entrypoint, Cwd: cwd, Env: env, Focus: !spawn.focus.noFocus,
				Placement: optional(cmd, "placement", placement), WorkspaceID: optional(cmd, "workspace", workspace),
				TargetPaneID: optional(cmd, "target-pane", target), Direction: optional(cmd, "direction", direction),
			}
			for _, d := range []struct {
				flag, value string
				dst         *any
			}{{"width", width, &prm.Width}, {"height", height, &prm.Height}} {
				if !cmd.Flags().Changed(d.flag) {
					continue
				}
				size, err := popupSizeArg(d.value)
				if err != nil {
					return fmt.Errorf("--%s %v", d.flag, err)
				}
				*d.dst = size
			}
			if err := prm.Validate(); err != nil {
				return err
			}
			return exit(a.call("cli:plugin:pane:open", "plugin.pane.open", prm))
		},
	}
	f := open.Flags()
	f.StringVar(&plugin, "plugin", "", "the plugin `ID`")
	f.StringVar(&entrypoint, "entrypoint", "", "the pane entrypoint's `ID`")
	f.StringVar(&placement, "placement", "", "overlay, popup, split, tab or zoomed (default: the entrypoint's)")
	f.StringVar(&width, "width", "", "popup width: cells or a percentage")
	f.StringVar(&height, "height", "", "popup height: cells or a percentage")
	f.StringVar(&workspace, "workspace", "", "workspace for a tab placement")
	f.StringVar(&target, "target-pane", "", "pane to split or zoom beside")
	f.StringVar(&direction, "direction", "", "split direction: right or down")
	spawn.bind(open, "plugin pane")
	group.AddCommand(open) // focus and close: the table's (cli/fromtable.go)
	return group
}

// popupSizeArg reads a popup size flag: a whole number of cells, or N%.
func popupSizeArg(v string) (any, error) {
	var size any = v
	if n, err := strconv.ParseUint(v, 10, 16); err == nil {
		size = float64(n)
	}
	if _, err := protocol.ParsePopupSize(size); err != nil {
		return nil, fmt.Errorf("must be a number of cells (0-65535) or a percentage like 80%%, got %q", v)
	}
	return size, nil
}
