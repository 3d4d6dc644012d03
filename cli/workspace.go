package cli

import (
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) workspaceCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:     "workspace",
		Aliases: []string{"ws"},
		Short:   "List, create, focus, rename, move and close workspaces",
		Long: `Workspaces hold tabs, tabs hold panes. Every subcommand sends one request and
prints the JSON response line. Workspace ids look like w1.`,
	})

	// list, get, focus, close, rename, count, move and move-block: the
	// table's (cli/fromtable.go).
	a.addVerbs(cmd,
		verb{[]string{"create"}, a.workspaceCreateCmd},
		verb{[]string{"report-metadata"}, a.workspaceReportMetadataCmd}, // hooks.go
	)
	return cmd
}

func (a *app) workspaceCreateCmd() *cobra.Command {
	var (
		label  string
		source string
		spawn  spawnFlags
	)
	create := &cobra.Command{
		Use:   "create",
		Short: summary("workspace.create"),
		Long: summary("workspace.create") + `. The new workspace is not focused
unless --focus is given.`,
		Example: `  herdr workspace create --cwd ~/src/app --label app
  herdr workspace create --env RUST_LOG=debug --focus`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cwd, env, err := spawn.resolve(a, cmd)
			if err != nil {
				return err
			}
			return exit(a.call("cli:workspace:create", "workspace.create", protocol.WorkspaceCreateParams{
				Cwd: cwd, Env: env, Focus: spawn.focus.value(), Label: optional(cmd, "label", label),
				SourceWorkspaceID: optional(cmd, "source-workspace", source),
			}))
		},
	}
	create.Flags().StringVar(&label, "label", "", "label of the new workspace")
	create.Flags().StringVar(&source, "source-workspace", "", "workspace whose focused pane's folder the new one starts in, when --cwd is not given")
	spawn.bind(create, "workspace")
	return create
}
