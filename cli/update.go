package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// updateCmd is `herdr update [--handoff]`. This build downloads nothing
// (there is no release channel it can reach): a new binary is installed
// by putting it in place of this one, and `update --handoff` then hands
// the running session to it, every program in every pane still running.
func (a *app) updateCmd() *cobra.Command {
	var handoff bool
	cmd := &cobra.Command{
		Use:   "update [--handoff]",
		Short: "Hand the running session to the herdr binary now installed here",
		Long: `Herdr's update downloads a release and replaces this binary; this build has
no release source to download from, so install the new herdr and herdr-full
over these yourself (go build -o DIR/ ./cmd/herdr ./cmd/herdr-full from a
checkout, a package manager, …). Then --handoff hands the running server, every
pane's program still running, to the herdr-full beside this command
(server.live_handoff), as herdr server handoff --import-exe DIR/herdr-full would.`,
		Example: `  go build -o ~/bin/ ./cmd/herdr ./cmd/herdr-full && herdr update --handoff`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !handoff {
				fmt.Fprintln(a.stderr, "error: this herdr downloads no updates: install the new binary in place of this one, then run `herdr update --handoff`")
				return exit(1)
			}
			exe, err := a.fullBinary()
			if err != nil {
				return exit(a.fail("cli:update", err))
			}
			return exit(a.handoff(protocol.ServerLiveHandoffParams{ImportExe: &exe}))
		},
	}
	cmd.Flags().BoolVar(&handoff, "handoff", false, "hand the running session to this binary without stopping any pane")
	return cmd
}
