package cli

import (
	"fmt"

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

	var listJSON bool
	cmd.AddCommand(jsonFlag(&cobra.Command{
		Use:   "list",
		Short: summary("workspace.list"),
		Long:  summary("workspace.list") + ". A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.request("cli:workspace:list", "workspace.list", nil, tableFor(a, listJSON, drawWorkspaces)))
		},
	}, &listJSON))
	// get, focus, close, rename and count: the table's (cli/fromtable.go).

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
	cmd.AddCommand(create, a.workspaceMoveCmd(), a.workspaceMoveBlockCmd())
	return cmd
}

func (a *app) workspaceMoveCmd() *cobra.Command {
	var index int
	cmd := &cobra.Command{
		Use:   "move <workspace> --index N",
		Short: summary("workspace.move"),
		Long: summary("workspace.move") + `: --index is its 0-based position once moved
(past the end means last). Prints the workspace list in its new order.`,
		Example: "  herdr workspace move w3 --index 0",
		Args:    exactArgs("<workspace>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if index < 0 {
				return fmt.Errorf("invalid --index %d: must not be negative", index)
			}
			return exit(a.call("cli:workspace:move", "workspace.move", protocol.WorkspaceMoveParams{WorkspaceID: args[0], InsertIndex: &index}))
		},
	}
	cmd.Flags().IntVar(&index, "index", 0, "0-based position to move the workspace to (required)")
	_ = cmd.MarkFlagRequired("index")
	return cmd
}

func (a *app) workspaceMoveBlockCmd() *cobra.Command {
	var before string
	cmd := &cobra.Command{
		Use:   "move-block <workspace>... [--before WORKSPACE]",
		Short: summary("workspace.move_block"),
		Long: summary("workspace.move_block") + ` (or to the end without --before), in the
order given, in one step: nothing moves when any id is unknown, listed twice,
or the anchor is part of the block. Prints the workspace list in its new order.`,
		Example: "  herdr workspace move-block w4 w2 --before w1",
		Args:    minArgs("<workspace>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:workspace:move-block", "workspace.move_block",
				protocol.WorkspaceMoveBlockParams{WorkspaceIDs: args, BeforeWorkspaceID: optional(cmd, "before", before)}))
		},
	}
	cmd.Flags().StringVar(&before, "before", "", "put the block in front of this workspace (default: at the end)")
	return cmd
}
