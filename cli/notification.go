package cli

import (
	"github.com/spf13/cobra"
)

func (a *app) notificationCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "notification",
		Short: "Show notifications on the attached client",
	})
	// show: the table's (cli/fromtable.go).
	return cmd
}
