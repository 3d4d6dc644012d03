package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// worktreeFlags are the source and checkout flags the worktree verbs share.
type worktreeFlags struct {
	workspace, cwd, branch, base, path, label string
	focus, noFocus, trust                     bool
}

func (f *worktreeFlags) source(cmd *cobra.Command) (protocol.WorktreeSource, error) {
	src := protocol.WorktreeSource{TrustRepository: f.trust}
	if cmd.Flags().Changed("workspace") && cmd.Flags().Changed("cwd") {
		return src, fmt.Errorf("give at most one of --workspace and --cwd")
	}
	if cmd.Flags().Changed("workspace") {
		src.WorkspaceID = &f.workspace
	}
	if cmd.Flags().Changed("cwd") {
		abs, err := filepath.Abs(f.cwd)
		if err != nil {
			return src, err
		}
		src.Cwd = &abs
	}
	return src, nil
}

// opt is the flag's value when it was given.
func opt(cmd *cobra.Command, name, v string) *string {
	if cmd.Flags().Changed(name) {
		return &v
	}
	return nil
}

func (f *worktreeFlags) absPath(cmd *cobra.Command) (*string, error) {
	if !cmd.Flags().Changed("path") {
		return nil, nil
	}
	abs, err := filepath.Abs(f.path)
	return &abs, err
}

func (f *worktreeFlags) bind(cmd *cobra.Command, checkout bool) {
	cmd.Flags().StringVar(&f.workspace, "workspace", "", "the source workspace `ID` (default: the active one)")
	cmd.Flags().StringVar(&f.cwd, "cwd", "", "a source folder `PATH` instead of a workspace")
	cmd.Flags().BoolVar(&f.trust, "trust-repository", false, trustUsage)
	if checkout {
		cmd.Flags().StringVar(&f.branch, "branch", "", "the branch `B`")
		cmd.Flags().StringVar(&f.path, "path", "", "the checkout folder `P`")
		cmd.Flags().StringVar(&f.label, "label", "", "the new workspace's label `T`")
		cmd.Flags().BoolVar(&f.focus, "focus", false, "focus the workspace")
		cmd.Flags().BoolVar(&f.noFocus, "no-focus", false, "do not focus the workspace (the default)")
		cmd.MarkFlagsMutuallyExclusive("focus", "no-focus")
	}
}

const trustUsage = "work on a repository owned by another user (git's safe.directory for this request only)"

func (a *app) worktreeCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "worktree",
		Short: "Manage git worktrees as workspaces",
		Long: `A workspace per checkout: create a git worktree (a new branch from --base, or
an existing one) and open it as a workspace grouped under its repository's,
open an existing one, list them, or remove one (the branch is kept; a
checkout with changes needs --force). A repository owned by another user,
which git refuses ("dubious ownership"), needs --trust-repository: git
trusts it for that one command, nothing is written to git's config.`,
	})

	var list worktreeFlags
	var listJSON bool
	listCmd := jsonFlag(&cobra.Command{
		Use:   "list [--workspace ID|--cwd P]",
		Short: summary("worktree.list"),
		Long:  summary("worktree.list") + ". A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := list.source(cmd)
			if err != nil {
				return err
			}
			return exit(a.request("cli:worktree:list", "worktree.list", protocol.WorktreeListParams{WorktreeSource: src}, tableFor(a, listJSON, drawWorktrees)))
		},
	}, &listJSON)
	list.bind(listCmd, false)

	var create worktreeFlags
	createCmd := &cobra.Command{
		Use:   "create [--workspace ID|--cwd P] [--branch B] [--base REF] [--path P] [--label T] [--focus|--no-focus]",
		Short: summary("worktree.create"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := create.source(cmd)
			if err != nil {
				return err
			}
			path, err := create.absPath(cmd)
			if err != nil {
				return err
			}
			return exit(a.call("cli:worktree:create", "worktree.create", protocol.WorktreeCreateParams{
				WorktreeSource: src, Branch: opt(cmd, "branch", create.branch), Base: opt(cmd, "base", create.base),
				Path: path, Label: opt(cmd, "label", create.label), Focus: create.focus,
			}))
		},
	}
	create.bind(createCmd, true)
	createCmd.Flags().StringVar(&create.base, "base", "", "the `REF` a new branch starts from: a branch, tag or commit id (default HEAD)")

	var open worktreeFlags
	openCmd := &cobra.Command{
		Use:   "open [--workspace ID|--cwd P] (--path P|--branch B) [--label T] [--focus|--no-focus]",
		Short: summary("worktree.open"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := open.source(cmd)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("path") == cmd.Flags().Changed("branch") {
				return fmt.Errorf("give exactly one of --path and --branch")
			}
			path, err := open.absPath(cmd)
			if err != nil {
				return err
			}
			return exit(a.call("cli:worktree:open", "worktree.open", protocol.WorktreeOpenParams{
				WorktreeSource: src, Branch: opt(cmd, "branch", open.branch), Path: path,
				Label: opt(cmd, "label", open.label), Focus: open.focus,
			}))
		},
	}
	open.bind(openCmd, true)

	var (
		removeWS, removeCwd string
		force, trust        bool
	)
	removeCmd := &cobra.Command{
		Use:   "remove (<path>|<branch>|--workspace ID) [--cwd P] [--force]",
		Short: summary("worktree.remove"),
		Long: summary("worktree.remove") + `. The worktree is --workspace, or the
checkout at <path>, or the one of <branch> in the repository of --cwd (default:
the current folder); it must be open as a workspace.`,
		Example: `  herdr worktree remove ../repo-feature-x
  herdr worktree remove feature-x --cwd ~/repo
  herdr worktree remove --workspace w3`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && removeWS != "":
				return fmt.Errorf("give a path or branch, or --workspace, not both")
			case len(args) == 0 && removeWS == "":
				return fmt.Errorf("missing <path>, <branch> or --workspace")
			case len(args) == 0 && cmd.Flags().Changed("cwd"):
				return fmt.Errorf("--cwd goes with a path or branch, not with --workspace")
			}
			p := protocol.WorktreeRemoveParams{WorkspaceID: removeWS, Force: force, TrustRepository: trust}
			if len(args) == 0 {
				return exit(a.call("cli:worktree:remove", "worktree.remove", p))
			}
			return exit(a.removeWorktreeNamed(args[0], removeCwd, p))
		},
	}
	removeCmd.Flags().StringVar(&removeWS, "workspace", "", "the worktree's workspace `ID`")
	removeCmd.Flags().StringVar(&removeCwd, "cwd", "", "a folder `PATH` of the repository whose <branch> is meant")
	removeCmd.Flags().BoolVar(&force, "force", false, "remove a checkout with changes, discarding them")
	removeCmd.Flags().BoolVar(&trust, "trust-repository", false, trustUsage)
	cmd.AddCommand(listCmd, createCmd, openCmd, removeCmd)
	return cmd
}
