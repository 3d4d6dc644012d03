package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) apiCmd() *cobra.Command {
	var methods strings.Builder
	for _, m := range protocol.Methods() {
		fmt.Fprintf(&methods, "  %-22s %s\n", m.Name, m.Summary)
	}
	cmd := a.group(&cobra.Command{
		Use:   "api",
		Short: "Raw views of the socket API",
		Long: `Raw views of the socket API. Programs can also talk to the socket directly:
one JSON request per line, {"id":"...","method":"...","params":{...}}, one
response line each, many requests per connection.

Methods this server implements:
` + methods.String(),
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "snapshot",
		Short: summary("session.snapshot"),
		Long:  summary("session.snapshot") + " (session.snapshot), printed as one JSON line.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:api:snapshot", "session.snapshot", nil))
		},
	})
	return cmd
}
