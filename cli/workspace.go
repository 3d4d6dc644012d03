package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) workspaceCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:     "workspace",
		Aliases: []string{"ws"},
		Short:   "List, create, focus, rename and close workspaces",
		Long: `Workspaces hold tabs, tabs hold panes. Every subcommand sends one request and
prints the JSON response line. Workspace ids look like w1.`,
	})

	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: summary("workspace.list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:workspace:list", "workspace.list", nil))
		},
	})
	for _, verb := range []struct{ name, method string }{
		{"get", "workspace.get"}, {"focus", "workspace.focus"}, {"close", "workspace.close"},
	} {
		cmd.AddCommand(&cobra.Command{
			Use:   verb.name + " <workspace>",
			Short: summary(verb.method),
			Args:  exactArgs("<workspace>"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return exit(a.call("cli:workspace:"+verb.name, verb.method, protocol.WorkspaceTarget{WorkspaceID: args[0]}))
			},
		})
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "rename <workspace> <label...>",
		Short:   summary("workspace.rename"),
		Long:    summary("workspace.rename") + "; the label is the remaining arguments joined by spaces.",
		Example: "  herdr workspace rename w1 api server",
		Args:    minArgs("<workspace>", "<label>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:workspace:rename", "workspace.rename",
				protocol.WorkspaceRenameParams{WorkspaceID: args[0], Label: strings.Join(args[1:], " ")}))
		},
	})

	var (
		label string
		spawn spawnFlags
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
			}))
		},
	}
	create.Flags().StringVar(&label, "label", "", "label of the new workspace")
	spawn.bind(create, "workspace")
	cmd.AddCommand(create)
	return cmd
}
