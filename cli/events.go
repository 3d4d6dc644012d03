package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// eventsCmd streams events as NDJSON: `herdr events`.
func (a *app) eventsCmd() *cobra.Command {
	var (
		types []string
		pane  string
		since uint64
		fleet bool
	)
	cmd := &cobra.Command{
		Use:   "events [--type TYPE]... [--pane PANE] [--since SEQ]",
		Short: "Print the event stream as NDJSON (events.subscribe)",
		Long: `Subscribe to events and print each one as a JSON line until the server
closes the stream. Without --type every lifecycle event is printed, every
pane's agent status changes among them. pane.agent_status_changed without
--pane is every pane's (lifecycle envelope); with --pane, that pane's
(dedicated envelope). pane.scroll_changed needs --pane. --since resumes
after an event's "seq" while the server still retains it.`,
		Example: `  herdr events
  herdr events --type pane.created --type pane.closed
  herdr events --type pane.agent_status_changed
  herdr events --type pane.agent_status_changed --pane w1:p1`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var subs []protocol.Subscription
			if len(types) == 0 {
				for _, k := range protocol.LifecycleKinds {
					switch typ := strings.Replace(k, "_", ".", 1); typ {
					case "pane.output_changed":
					case protocol.SubAgentStatusChanged:
						// The dotted type is the one-pane subscription (it
						// needs a pane_id); the lifecycle kind is every pane's.
						subs = append(subs, protocol.Subscription{Type: k})
					default:
						subs = append(subs, protocol.Subscription{Type: typ})
					}
				}
			}
			for _, t := range types {
				s := protocol.Subscription{Type: t}
				switch t {
				case protocol.SubAgentStatusChanged:
					if pane == "" {
						s.Type = "pane_agent_status_changed" // every pane's
					}
					s.PaneID = pane
				case protocol.SubScrollChanged:
					if pane == "" {
						return fmt.Errorf("--type %s needs --pane", t)
					}
					s.PaneID = pane
				case protocol.SubOutputMatched:
					return fmt.Errorf("use `herdr wait output` for output matches")
				default:
					if _, ok := protocol.SubscriptionKind(t); !ok {
						return fmt.Errorf("unknown event type %q", t)
					}
				}
				subs = append(subs, s)
			}
			p := protocol.EventsSubscribeParams{Subscriptions: subs}
			if fleet {
				p.Machines = protocol.MachinesAll
			}
			if cmd.Flags().Changed("since") {
				p.SinceSeq = &since
			}
			return exit(a.stream("cli:events", "events.subscribe", p))
		},
	}
	cmd.Flags().StringArrayVar(&types, "type", nil, "event type to print, dotted (repeatable; default: all lifecycle events)")
	cmd.Flags().StringVar(&pane, "pane", "", "pane for the pane.* subscription types")
	cmd.Flags().Uint64Var(&since, "since", 0, "resume after this sequence number")
	cmd.Flags().BoolVar(&fleet, "all-machines", false, "also every saved machine's events (ids qualified, with \"machine\"), and machine_state_changed")
	return cmd
}

// stream sends a subscription and prints every line after the
// acknowledgement until the stream ends; an events_lost line exits 1.
func (a *app) stream(id, method string, params any) int {
	c, sock, code := a.connect(id)
	if c == nil {
		return code
	}
	defer c.Close()
	line, resp, err := roundTrip(c, id, method, params)
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	for {
		line, err := c.ReadLine()
		if err != nil {
			return 0 // the server closed the stream
		}
		if strings.Contains(string(line), `"error":{"code":"events_lost"`) {
			fmt.Fprintf(a.stderr, "%s\n", line)
			return 1
		}
		fmt.Fprintf(a.stdout, "%s\n", line)
	}
}

// waitCmd groups the waits: `herdr wait output|agent-status|event`.
func (a *app) waitCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{Use: "wait", Short: "Wait for output, an agent status or an event"})
	output := a.paneWaitOutputCmd()
	output.Use = strings.Replace(output.Use, "wait-output", "output", 1)
	cmd.AddCommand(output, a.waitAgentStatusCmd(), a.waitEventCmd())
	return cmd
}

func (a *app) waitAgentStatusCmd() *cobra.Command {
	var (
		status  string
		timeout uint64
	)
	cmd := &cobra.Command{
		Use:   "agent-status <pane> --status STATUS [--timeout MS]",
		Short: "Wait until a pane's agent has a status (answers at once if it already has)",
		Args:  exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch status {
			case "idle", "working", "blocked", "done", "unknown":
			default:
				return fmt.Errorf("invalid --status %q: expected idle, working, blocked, done or unknown", status)
			}
			p := protocol.EventsWaitParams{MatchEvent: &protocol.EventMatch{Event: "pane_agent_status_changed", PaneID: &args[0], AgentStatus: &status}}
			if cmd.Flags().Changed("timeout") {
				p.TimeoutMS = &timeout
			}
			return exit(a.call("cli:wait:agent-status", "events.wait", p))
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "idle, working, blocked, done or unknown")
	_ = cmd.MarkFlagRequired("status")
	cmd.Flags().Uint64Var(&timeout, "timeout", 0, "give up after this many milliseconds (error code timeout)")
	return cmd
}

func (a *app) waitEventCmd() *cobra.Command {
	var (
		m       protocol.EventMatch
		ws, tab string
		pane    string
		label   string
		minRev  uint64
		seenRev uint64
		timeout uint64
	)
	cmd := &cobra.Command{
		Use:   "event <kind> [--workspace W] [--tab T] [--pane P] [--label L] [--min-revision N|--seen-revision N] [--timeout MS]",
		Short: summary("events.wait"),
		Example: `  herdr wait event tab_created --workspace w1
  herdr wait event pane_output_changed --pane w1:p1                    # the next change
  herdr wait event pane_output_changed --pane w1:p1 --seen-revision 9  # any change past 9`,
		Args: exactArgs("<kind>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			m.Event = args[0]
			for flag, f := range map[string]struct {
				dst **string
				v   *string
			}{
				"workspace": {&m.WorkspaceID, &ws}, "tab": {&m.TabID, &tab}, "pane": {&m.PaneID, &pane}, "label": {&m.Label, &label},
			} {
				if cmd.Flags().Changed(flag) {
					*f.dst = f.v
				}
			}
			if cmd.Flags().Changed("min-revision") {
				m.MinRevision = &minRev
			}
			if cmd.Flags().Changed("seen-revision") {
				m.SeenRevision = &seenRev
			}
			p := protocol.EventsWaitParams{MatchEvent: &m, AllowExtensions: protocol.ExtensionWaits[m.Event]} // our CLI offers our waits
			if cmd.Flags().Changed("timeout") {
				p.TimeoutMS = &timeout
			}
			return exit(a.call("cli:wait:event", "events.wait", p))
		},
	}
	cmd.Flags().StringVar(&ws, "workspace", "", "workspace id to match")
	cmd.Flags().StringVar(&tab, "tab", "", "tab id to match")
	cmd.Flags().StringVar(&pane, "pane", "", "pane id to match")
	cmd.Flags().StringVar(&label, "label", "", "label to match (renames)")
	cmd.Flags().Uint64Var(&minRev, "min-revision", 0, "for pane_output_changed: the revision to reach (answers at once when reached)")
	cmd.Flags().Uint64Var(&seenRev, "seen-revision", 0, "for pane_output_changed: the revision already seen (answers once the pane is past it)")
	cmd.MarkFlagsMutuallyExclusive("min-revision", "seen-revision")
	cmd.Flags().Uint64Var(&timeout, "timeout", 0, "give up after this many milliseconds (error code timeout)")
	return cmd
}
