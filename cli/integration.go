package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/integrations/setup"
	"github.com/herdr-go/herdr/protocol"
)

func (a *app) integrationCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "integration",
		Short: "Install, remove and check the hooks through which agents report to herdr",
		Long: `Agent integrations are small hook scripts, extensions or plugins that an
agent runs; inside a herdr pane they report the agent's session (and for some
agents its state) to herdr, so detection does not rely on the screen alone.

Targets: ` + strings.Join(targetNames(), ", ") + `.`,
	})
	verb := func(name, method string, params func(target string) any, local func(string, func(string) string) ([]string, error)) *cobra.Command {
		return &cobra.Command{
			Use:   name + " <target>",
			Short: summary(method),
			Long: summary(method) + ` (through the running server, else here), and print
what was done, one line each. Targets: ` + strings.Join(targetNames(), ", ") + `.`,
			Args: exactArgs("<target>"),
			RunE: func(cmd *cobra.Command, args []string) error {
				t, ok := setup.Lookup(args[0])
				if !ok {
					return fmt.Errorf("unknown integration target %q (expected one of %s)", args[0], strings.Join(targetNames(), ", "))
				}
				if sock, err := a.socket(); err == nil {
					if c, err := protocol.Dial(sock, 250*time.Millisecond); err == nil {
						c.Close()
						return exit(a.request("cli:integration:"+name, method, params(t.Wire), a.printMessages))
					}
				}
				// No server: the files are written here, as Herdr does.
				msgs, err := local(t.Wire, a.env)
				if err != nil {
					if pe := (*protocol.Error)(nil); !errors.As(err, &pe) {
						err = protocol.Errorf("integration_"+name+"_failed", "%v", err)
					}
					fmt.Fprintf(a.stderr, "%s\n", protocol.EncodeError("cli:integration:"+name, err))
					return exitCode(1)
				}
				for _, m := range msgs {
					fmt.Fprintln(a.stdout, m)
				}
				return nil
			},
		}
	}
	cmd.AddCommand(
		verb("install", "integration.install", func(t string) any { return protocol.IntegrationInstallParams{Target: t} }, setup.Install),
		verb("uninstall", "integration.uninstall", func(t string) any { return protocol.IntegrationUninstallParams{Target: t} }, setup.Uninstall),
		a.integrationStatusCmd(),
		a.integrationListCmd(),
	)
	return cmd
}

func (a *app) integrationListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: summary("integration.list"),
		Long: summary("integration.list") + ` (through the running server, else
here). One line per target: "claude (claude): current, available"; --json prints
the integration_list result.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			show := func(list []protocol.IntegrationInfo) {
				for _, i := range list {
					avail := "available"
					if !i.Available {
						avail = "not available here"
					}
					fmt.Fprintf(a.stdout, "%s (%s): %s, %s\n", i.Label, i.Command, strings.ReplaceAll(i.State, "_", " "), avail)
				}
			}
			if sock, err := a.socket(); err == nil {
				if c, err := protocol.Dial(sock, 250*time.Millisecond); err == nil {
					c.Close()
					return exit(a.request("cli:integration:list", "integration.list", protocol.EmptyParams{}, func(line []byte, resp protocol.Response) int {
						var r protocol.IntegrationList
						if err := protocol.Unmarshal(resp.Result, &r); asJSON || err != nil {
							return a.printLine(line, resp)
						}
						show(r.Integrations)
						return 0
					}))
				}
			}
			list := setup.List(a.env)
			if asJSON { // the line the server would answer
				line, err := protocol.EncodeSuccess("cli:integration:list", protocol.IntegrationList{Integrations: list})
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", line)
				return nil
			}
			show(list)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the integration_list result as JSON")
	return cmd
}

func (a *app) integrationStatusCmd() *cobra.Command {
	var outdatedOnly bool
	cmd := &cobra.Command{
		Use:   "status [TARGET] [--outdated-only]",
		Short: "Show which integrations are installed and whether they are current",
		Long: `Read the installed integration files' version markers (no server needed) and
print one line per target: "claude: current (v7) (PATH)", "claude: outdated
(v5 < v7) (PATH)" or "claude: not installed".`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			list := setup.Targets()
			if len(args) == 1 {
				t, ok := setup.Lookup(args[0])
				if !ok {
					return fmt.Errorf("unknown integration target %q (expected one of %s)", args[0], strings.Join(targetNames(), ", "))
				}
				list = []*setup.Target{t}
			}
			for _, t := range list {
				s := setup.StatusOf(t, a.env)
				if outdatedOnly && !s.Outdated() {
					continue
				}
				fmt.Fprintln(a.stdout, s.String())
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&outdatedOnly, "outdated-only", false, "list only installed integrations older than this herdr's")
	return cmd
}

// printMessages prints an integration result's messages, one a line.
func (a *app) printMessages(line []byte, resp protocol.Response) int {
	var r struct {
		Details protocol.IntegrationDetails `json:"details"`
	}
	if err := protocol.Unmarshal(resp.Result, &r); err != nil {
		return a.printLine(line, resp)
	}
	for _, m := range r.Details.Messages {
		fmt.Fprintln(a.stdout, m)
	}
	return 0
}

func targetNames() []string {
	var out []string
	for _, t := range setup.Targets() {
		out = append(out, t.Name)
	}
	return out
}
