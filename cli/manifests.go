package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// The agent-manifest verbs of `herdr server`. There is no remote
// catalogue to fetch from, so update-agent-manifests reloads the bundled
// manifests and local overrides, then shows what is active.

func (a *app) manifestCmds() []*cobra.Command {
	var asJSON bool
	list := &cobra.Command{
		Use:   "agent-manifests [--json]",
		Short: summary("server.agent_manifests"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.request("cli:server:agent-manifests", "server.agent_manifests", nil, a.manifestPrinter(asJSON)))
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the JSON response")

	var updateJSON bool
	update := &cobra.Command{
		Use:   "update-agent-manifests [--json]",
		Short: "Reload the agent manifests (bundled and local overrides; there is no remote catalogue) and show them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := a.silent("cli:server:reload-agent-manifests", "server.reload_agent_manifests", nil); code != 0 {
				return exit(code)
			}
			return exit(a.request("cli:server:agent-manifests", "server.agent_manifests", nil, a.manifestPrinter(updateJSON)))
		},
	}
	update.Flags().BoolVar(&updateJSON, "json", false, "print the JSON response")
	return []*cobra.Command{list, update} // reload-agent-manifests: the table's (cli/fromtable.go)
}

// manifestPrinter prints agent_manifest_status as JSON or as a table.
func (a *app) manifestPrinter(asJSON bool) onSuccess {
	return func(line []byte, resp protocol.Response) int {
		if asJSON {
			return a.printLine(line, resp)
		}
		var st protocol.AgentManifestStatus
		if err := protocol.Unmarshal(resp.Result, &st); err != nil {
			return a.printLine(line, resp)
		}
		fmt.Fprintf(a.stdout, "last check: never\nresult: not checked\n\n")
		for _, m := range st.Manifests {
			version := "-"
			if m.ActiveVersion != nil {
				version = *m.ActiveVersion
			}
			fmt.Fprintf(a.stdout, "  %-9s %-14s active %-14s remote %-14s not checked\n", m.Agent, m.SourceKind, version, "-")
			if m.Warning != nil {
				fmt.Fprintf(a.stdout, "  %s\n", *m.Warning)
			}
		}
		return 0
	}
}
