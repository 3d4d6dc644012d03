package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// The hand-written hook reporting verbs, pane report-metadata and
// workspace report-metadata (tokens, state labels and TTLs parsed), are
// their nouns' (pane.go, workspace.go). pane report-agent,
// report-agent-session and release-agent are the table's. They print
// nothing on success.

// optSeq returns the --seq value when given.
func optSeq(cmd *cobra.Command, v uint64) *uint64 {
	if cmd.Flags().Changed("seq") {
		return &v
	}
	return nil
}

// parseTokens turns --token N=V and --clear-token N into a tokens map.
func parseTokens(set, clear []string) (map[string]*string, error) {
	if len(set) == 0 && len(clear) == 0 {
		return nil, nil
	}
	out := map[string]*string{}
	for _, kv := range set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid --token %q: expected NAME=VALUE", kv)
		}
		out[k] = &v
	}
	for _, k := range clear {
		out[k] = nil
	}
	return out, nil
}

func (a *app) paneReportMetadataCmd() *cobra.Command {
	var (
		p                              protocol.PaneReportMetadataParams
		seq, ttl                       uint64
		agent, applies, title, display string
		labels, tokens, clearTokens    []string
	)
	cmd := &cobra.Command{
		Use:   "report-metadata <pane> --source ID [flags]",
		Short: summary("pane.report_metadata"),
		Long: summary("pane.report_metadata") + `. Metadata is presentation only: it never
changes an agent's status. --agent and --applies-to-source make it show only
while that agent runs or that source has authority; --ttl-ms makes it expire.
Prints nothing on success.`,
		Args: exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.PaneID, p.Seq = args[0], optSeq(cmd, seq)
			p.Agent = optional(cmd, "agent", agent)
			p.AppliesToSource = optional(cmd, "applies-to-source", applies)
			p.Title = optional(cmd, "title", title)
			p.DisplayAgent = optional(cmd, "display-agent", display)
			if cmd.Flags().Changed("ttl-ms") {
				p.TTLMS = &ttl
			}
			for _, kv := range labels {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return fmt.Errorf("invalid --state-label %q: expected STATUS=TEXT", kv)
				}
				if p.StateLabels == nil {
					p.StateLabels = map[string]string{}
				}
				p.StateLabels[k] = v
			}
			var err error
			if p.Tokens, err = parseTokens(tokens, clearTokens); err != nil {
				return err
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.silent("cli:pane:report-metadata", "pane.report_metadata", p))
		},
	}
	f := cmd.Flags()
	f.StringVar(&p.Source, "source", "", "who reports")
	f.StringVar(&agent, "agent", "", "show only while this agent runs in the pane")
	f.StringVar(&applies, "applies-to-source", "", "show only while this source has authority over the pane")
	f.StringVar(&title, "title", "", "the pane's title")
	f.BoolVar(&p.ClearTitle, "clear-title", false, "remove the title")
	f.StringVar(&display, "display-agent", "", "the name to show for the agent")
	f.BoolVar(&p.ClearDisplayAgent, "clear-display-agent", false, "remove the display name")
	f.StringArrayVar(&labels, "state-label", nil, "text to show for a status, STATUS=TEXT (repeatable)")
	f.BoolVar(&p.ClearStateLabels, "clear-state-labels", false, "remove the state labels")
	f.StringArrayVar(&tokens, "token", nil, "set a token NAME=VALUE (repeatable)")
	f.StringArrayVar(&clearTokens, "clear-token", nil, "remove a token (repeatable)")
	f.Uint64Var(&seq, "seq", 0, "ordering number; reports not above the last are ignored")
	f.Uint64Var(&ttl, "ttl-ms", 0, "expire this report after so many milliseconds")
	cmd.MarkFlagsMutuallyExclusive("title", "clear-title")
	cmd.MarkFlagsMutuallyExclusive("display-agent", "clear-display-agent")
	return cmd
}

func (a *app) workspaceReportMetadataCmd() *cobra.Command {
	var (
		p                   protocol.WorkspaceReportMetadataParams
		seq, ttl            uint64
		tokens, clearTokens []string
	)
	cmd := &cobra.Command{
		Use:   "report-metadata <workspace> --source ID [--token N=V]... [--clear-token N]... [--seq N] [--ttl-ms N]",
		Short: summary("workspace.report_metadata"),
		Long:  summary("workspace.report_metadata") + ". Prints nothing on success.",
		Args:  exactArgs("<workspace>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.WorkspaceID, p.Seq = args[0], optSeq(cmd, seq)
			if cmd.Flags().Changed("ttl-ms") {
				p.TTLMS = &ttl
			}
			var err error
			if p.Tokens, err = parseTokens(tokens, clearTokens); err != nil {
				return err
			}
			if p.Tokens == nil {
				p.Tokens = map[string]*string{}
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.silent("cli:workspace:report-metadata", "workspace.report_metadata", p))
		},
	}
	cmd.Flags().StringVar(&p.Source, "source", "", "who reports")
	cmd.Flags().StringArrayVar(&tokens, "token", nil, "set a token NAME=VALUE (repeatable)")
	cmd.Flags().StringArrayVar(&clearTokens, "clear-token", nil, "remove a token (repeatable)")
	cmd.Flags().Uint64Var(&seq, "seq", 0, "ordering number; reports not above the last are ignored")
	cmd.Flags().Uint64Var(&ttl, "ttl-ms", 0, "expire these tokens after so many milliseconds")
	return cmd
}
