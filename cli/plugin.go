package cli

import (
	"fmt"
	"path/filepath"

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
shell; their runs are kept in the plugin log.`,
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
			return exit(a.call("cli:plugin:link", "plugin.link", protocol.PluginLinkParams{Path: path, Enabled: &enabled}))
		},
	}
	link.Flags().BoolVar(&disabled, "disabled", false, "link it disabled")

	byID := func(verb, method string) *cobra.Command {
		return &cobra.Command{
			Use:   verb + " <id>",
			Short: summary(method),
			Args:  exactArgs("<id>"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return exit(a.call("cli:plugin:"+verb, method, protocol.PluginIDParams{PluginID: args[0]}))
			},
		}
	}

	var listPlugin string
	list := &cobra.Command{
		Use:   "list [--plugin ID] [--json]",
		Short: summary("plugin.list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:plugin:list", "plugin.list", protocol.PluginListParams{PluginID: opt(cmd, "plugin", listPlugin)}))
		},
	}
	list.Flags().StringVar(&listPlugin, "plugin", "", "only plugin `ID`")
	list.Flags().Bool("json", true, "print JSON (the only output)")

	configDir := &cobra.Command{
		Use:   "config-dir <id>",
		Short: "Print a plugin's config folder",
		Args:  exactArgs("<id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, _ := plugins.Dirs(protocol.ConfigDir(a.env), protocol.StateDir(a.env), args[0])
			fmt.Fprintln(a.stdout, dir)
			return nil
		},
	}

	action := a.group(&cobra.Command{Use: "action", Short: "List and invoke plugin actions"})
	var actionPlugin string
	actionList := &cobra.Command{
		Use:   "list [--plugin ID]",
		Short: summary("plugin.action.list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:plugin:action:list", "plugin.action.list", protocol.PluginListParams{PluginID: opt(cmd, "plugin", actionPlugin)}))
		},
	}
	actionList.Flags().StringVar(&actionPlugin, "plugin", "", "only plugin `ID`")
	var invokePlugin string
	invoke := &cobra.Command{
		Use:   "invoke <action_id> [--plugin ID]",
		Short: summary("plugin.action.invoke"),
		Args:  exactArgs("<action_id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			src := "cli"
			return exit(a.call("cli:plugin:action:invoke", "plugin.action.invoke", protocol.PluginActionInvokeParams{
				ActionID: args[0], PluginID: opt(cmd, "plugin", invokePlugin),
				Context: &protocol.PluginInvocationContext{InvocationSource: &src},
			}))
		},
	}
	invoke.Flags().StringVar(&invokePlugin, "plugin", "", "the action's plugin `ID`")
	action.AddCommand(actionList, invoke)

	logs := a.group(&cobra.Command{Use: "log", Short: "Show plugin command runs"})
	var logPlugin string
	var limit uint64
	logList := &cobra.Command{
		Use:   "list [--plugin ID] [--limit N]",
		Short: summary("plugin.log.list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			prm := protocol.PluginLogListParams{PluginID: opt(cmd, "plugin", logPlugin)}
			if cmd.Flags().Changed("limit") {
				prm.Limit = &limit
			}
			return exit(a.call("cli:plugin:log:list", "plugin.log.list", prm))
		},
	}
	logList.Flags().StringVar(&logPlugin, "plugin", "", "only plugin `ID`")
	logList.Flags().Uint64Var(&limit, "limit", 0, "at most `N` runs, newest first")
	logs.AddCommand(logList)

	cmd.AddCommand(link, byID("unlink", "plugin.unlink"), byID("enable", "plugin.enable"), byID("disable", "plugin.disable"),
		list, configDir, action, logs, a.pluginInstallCmd(), a.pluginUninstallCmd())
	return cmd
}
