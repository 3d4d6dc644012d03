package cli

import (
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

	// list, get, focus, close, rename and move: the table's (cli/fromtable.go).

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
	return cmd
}
