package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) tabCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "tab",
		Short: "List, create, focus, rename, move and close tabs",
		Long: `Tabs live in a workspace and hold a layout of panes. Every subcommand sends one
request and prints the JSON response line. Tab ids look like w1:t1.`,
	})

	var listWorkspace string
	var listJSON bool
	list := jsonFlag(&cobra.Command{
		Use:   "list",
		Short: summary("tab.list"),
		Long:  summary("tab.list") + ". A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.request("cli:tab:list", "tab.list", protocol.TabListParams{WorkspaceID: optional(cmd, "workspace", listWorkspace)}, tableFor(a, listJSON, drawTabs)))
		},
	}, &listJSON)
	list.Flags().StringVar(&listWorkspace, "workspace", "", "only the tabs of this workspace")
	cmd.AddCommand(list)

	// get, focus, close and rename: the table's (cli/fromtable.go).

	var (
		workspace, label string
		spawn            spawnFlags
	)
	create := &cobra.Command{
		Use:   "create",
		Short: summary("tab.create"),
		Long: summary("tab.create") + `, in --workspace or else the active workspace. The
new tab is not focused unless --focus is given.`,
		Example: `  herdr tab create --workspace w1 --label tests --cwd ./tests`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cwd, env, err := spawn.resolve(a, cmd)
			if err != nil {
				return err
			}
			return exit(a.call("cli:tab:create", "tab.create", protocol.TabCreateParams{
				WorkspaceID: optional(cmd, "workspace", workspace), Cwd: cwd, Env: env,
				Focus: spawn.focus.value(), Label: optional(cmd, "label", label),
			}))
		},
	}
	create.Flags().StringVar(&workspace, "workspace", "", "workspace to create the tab in (default: the active one)")
	create.Flags().StringVar(&label, "label", "", "label of the new tab")
	spawn.bind(create, "tab")
	cmd.AddCommand(create)

	var index int
	move := &cobra.Command{
		Use:   "move <tab> --index N",
		Short: summary("tab.move"),
		Long: summary("tab.move") + `: --index is its 0-based position once moved (past
the end means last). Prints the workspace's tab list in its new order.`,
		Example: "  herdr tab move w1:t3 --index 0",
		Args:    exactArgs("<tab>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if index < 0 {
				return fmt.Errorf("invalid --index %d: must not be negative", index)
			}
			return exit(a.call("cli:tab:move", "tab.move", protocol.TabMoveParams{TabID: args[0], InsertIndex: &index}))
		},
	}
	move.Flags().IntVar(&index, "index", 0, "0-based position in the workspace to move the tab to (required)")
	_ = move.MarkFlagRequired("index")
	cmd.AddCommand(move)
	return cmd
}
