package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/protocol"
)

const targetHelp = protocol.AgentTargetHelp

func (a *app) agentCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "agent",
		Short: "List, read, prompt, wait on and start coding agents",
		Long: `Agents are panes running a recognised coding agent (claude, codex, …). Every
agent is working, blocked, idle, done (finished and not yet looked at) or
unknown. Most subcommands print the JSON response line; read prints text and
explain prints a summary unless --json.

` + targetHelp,
	})
	a.addVerbs(cmd,
		verb{[]string{"list"}, a.agentListCmd},
		verb{[]string{"read"}, a.agentReadCmd},
		verb{[]string{"explain"}, a.agentExplainCmd},
		verb{[]string{"rename"}, a.agentRenameCmd},
		verb{[]string{"prompt"}, a.agentPromptCmd},
		verb{[]string{"wait"}, a.agentWaitCmd},
		verb{[]string{"start"}, a.agentStartCmd},
		verb{[]string{"attach"}, a.agentAttachCmd}, // terminal_attach.go
		verb{[]string{"queue"}, a.agentQueueCmd},   // loop.go
	)
	// get, focus and send-keys: the table's (cli/fromtable.go).
	return cmd
}

func (a *app) agentListCmd() *cobra.Command {
	var listJSON bool
	return jsonFlag(fleetFlag(&cobra.Command{
		Use:   "list",
		Short: summary("agent.list"),
		Long:  summary("agent.list") + ". A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
	}, func(params any) error {
		return exit(a.request("cli:agent:list", "agent.list", params, tableFor(a, listJSON, drawAgents)))
	}), &listJSON)
}

func (a *app) agentReadCmd() *cobra.Command {
	var f readFlags
	cmd := &cobra.Command{
		Use:   "read <target>",
		Short: summary("agent.read"),
		Long:  summary("agent.read") + " and print the text itself. Default: recent output as plain text.\n\n" + targetHelp,
		Args:  exactArgs("<target>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.AgentReadParams{Target: args[0]}
			if err := f.params(cmd, &p.Source, &p.Format, &p.Lines, &p.StripANSI); err != nil {
				return err
			}
			return exit(a.request("cli:agent:read", "agent.read", p, a.printReadText))
		},
	}
	f.bind(cmd, false)
	return cmd
}

func (a *app) agentExplainCmd() *cobra.Command {
	var (
		asJSON, verbose bool
		file, label     string
	)
	cmd := &cobra.Command{
		Use:   "explain (<target> | --file PATH --agent LABEL)",
		Short: summary("agent.explain"),
		Long: summary("agent.explain") + `. Prints the agent, its state, the manifest
and the winning rule; --verbose adds every rule with its region preview,
--json prints the response line. With --file and --agent it evaluates that
agent's manifest on a saved screen locally, without a server.

` + targetHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("file") {
				if len(args) > 0 || label == "" {
					return errors.New("--file needs --agent and no target")
				}
				return exit(a.explainFile(file, label, asJSON, verbose))
			}
			if len(args) != 1 {
				return errors.New("missing argument <target>")
			}
			show := func(line []byte, resp protocol.Response) int {
				if asJSON {
					return a.printLine(line, resp)
				}
				var r struct {
					Explain json.RawMessage `json:"explain"`
				}
				if err := protocol.Unmarshal(resp.Result, &r); err != nil {
					return a.fail(resp.ID, protocol.Errorf(protocol.CodeInternal, "unreadable agent.explain result: %v", err))
				}
				return a.printExplain(r.Explain, verbose)
			}
			return exit(a.request("cli:agent:explain", "agent.explain", protocol.AgentTarget{Target: args[0]}, show))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the JSON response line")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every rule with its evidence")
	cmd.Flags().StringVar(&file, "file", "", "evaluate a saved screen (text file) locally")
	cmd.Flags().StringVar(&label, "agent", "", "the agent whose manifest --file is evaluated with")
	return cmd
}

func (a *app) printExplain(raw []byte, verbose bool) int {
	var v protocol.AgentExplanation
	if err := protocol.Unmarshal(raw, &v); err != nil {
		return a.fail("cli:agent:explain", protocol.Errorf(protocol.CodeInternal, "unreadable explanation: %v", err))
	}
	str := func(p *string) string {
		if p == nil {
			return "-"
		}
		return *p
	}
	fmt.Fprintf(a.stdout, "agent: %s\nstate: %s\nmanifest: %s (version %s)\n", v.Agent, v.State, str(v.ManifestSource), str(v.ManifestVersion))
	if v.HookAuthority != nil {
		fmt.Fprintf(a.stdout, "hook authority: %s (screen detection skipped: %v)\n", *v.HookAuthority, v.ScreenDetectionSkipped)
	}
	if v.MatchedRule != nil {
		fmt.Fprintf(a.stdout, "matched rule: %s (priority %d, region %s) → %s\n", v.MatchedRule.ID, v.MatchedRule.Priority, v.MatchedRule.Region, v.MatchedRule.State)
	} else {
		fmt.Fprintf(a.stdout, "matched rule: none (%s)\n", str(v.FallbackReason))
	}
	if v.Warning != nil {
		fmt.Fprintf(a.stdout, "warning: %s\n", *v.Warning)
	}
	if verbose {
		tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tPRIORITY\tREGION\tSTATE\tMATCHED\tBYTES\tPREVIEW")
		for _, r := range v.EvaluatedRules {
			var ev protocol.ExplainEvidence
			if r.Evidence != nil {
				ev = *r.Evidence
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%v\t%d\t%q\n", r.ID, r.Priority, r.Region, r.State, r.Matched, ev.RegionBytes, ev.RegionPreview)
		}
		tw.Flush()
	}
	return 0
}

// explainFile evaluates a manifest (local overrides included) on a saved screen.
func (a *app) explainFile(path, label string, asJSON, verbose bool) int {
	const id = "cli:agent:explain"
	data, err := protocol.ReadRegularFile(path, maxInputBytes)
	if err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInvalidRequest, "read %s: %v", path, err))
	}
	catalog, _ := rules.LoadCatalog(filepath.Join(protocol.ConfigDir(a.env), "agent-detection"))
	m, ok := catalog.Get(label)
	if !ok {
		return a.fail(id, protocol.Errorf(protocol.CodeInvalidAgent, "no detection manifest for %q", label))
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	res := m.Evaluate(rules.Input{Lines: lines})
	doc := rules.Explain(rules.Canonical(label), m, res)
	raw, _ := json.Marshal(doc)
	if asJSON {
		fmt.Fprintf(a.stdout, "%s\n", raw)
		return 0
	}
	return a.printExplain(raw, verbose)
}

func (a *app) agentRenameCmd() *cobra.Command {
	var clear bool
	cmd := &cobra.Command{
		Use:   "rename <target> (<name> | --clear)",
		Short: summary("agent.rename"),
		Long:  summary("agent.rename") + ". Names look like [a-z][a-z0-9_-]{0,31} and are unique among live agents.\n\n" + targetHelp,
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.AgentRenameParams{Target: args[0]}
			switch {
			case clear && len(args) == 2:
				return errors.New("give a name or --clear, not both")
			case !clear && len(args) == 1:
				return errors.New("missing argument <name> (or --clear)")
			case !clear:
				p.Name = &args[1]
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:agent:rename", "agent.rename", p))
		},
	}
	cmd.Flags().BoolVar(&clear, "clear", false, "remove the agent's name")
	return cmd
}

// untilHelp says which --until a script wants: an agent whose pane is
// focused finishes its turn as idle (it was seen), never done.
const untilHelp = `--until done is never reached by an agent whose pane is focused: a finished
turn the person saw is idle, not done. A script waiting for the end of a
turn wants --until finished: done, or idle after the agent was working
since the wait began.`

// untilFlags are the repeatable --until STATUS and --timeout MS.
type untilFlags struct {
	until   []string
	timeout uint64
}

func (u *untilFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&u.until, "until", nil, "stop at this status: idle, working, blocked, done, unknown, or finished (done, or idle after working) (repeatable; default idle, done, blocked)")
	cmd.Flags().Uint64Var(&u.timeout, "timeout", 0, "give up after this many milliseconds (error code timeout); default wait forever")
}

func (u *untilFlags) resolve(cmd *cobra.Command) ([]protocol.AgentStatus, *uint64, error) {
	var out []protocol.AgentStatus
	for _, s := range u.until {
		switch protocol.AgentStatus(s) {
		case protocol.StatusIdle, protocol.StatusWorking, protocol.StatusBlocked, protocol.StatusDone, protocol.StatusUnknown, protocol.UntilFinished:
			out = append(out, protocol.AgentStatus(s))
		default:
			return nil, nil, fmt.Errorf("invalid --until %q: expected idle, working, blocked, done, unknown or finished", s)
		}
	}
	var t *uint64
	if cmd.Flags().Changed("timeout") {
		t = &u.timeout
	}
	return out, t, nil
}

func (a *app) agentPromptCmd() *cobra.Command {
	var (
		wait bool
		u    untilFlags
	)
	cmd := &cobra.Command{
		Use:   "prompt <target> <text> [--wait [--until STATUS]... [--timeout MS]]",
		Short: summary("agent.prompt"),
		Long: summary("agent.prompt") + `. The text is pasted and Enter pressed in one
write. With --wait the answer comes once the agent has reacted and reached
one of the --until statuses; an agent that shows no change within 5 s
fails with agent_prompt_stalled.

` + untilHelp + "\n\n" + targetHelp,
		Args: exactArgs("<target>", "<text>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !wait && (cmd.Flags().Changed("until") || cmd.Flags().Changed("timeout")) {
				return errors.New("--until and --timeout need --wait")
			}
			p := protocol.AgentPromptParams{Target: args[0], Text: args[1]}
			if wait {
				until, timeout, err := u.resolve(cmd)
				if err != nil {
					return err
				}
				p.Wait = &protocol.AgentPromptWaitOptions{Until: until, TimeoutMS: timeout}
			}
			return exit(a.call("cli:agent:prompt", "agent.prompt", p))
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for the agent to react and settle")
	u.bind(cmd)
	return cmd
}

func (a *app) agentWaitCmd() *cobra.Command {
	var u untilFlags
	cmd := &cobra.Command{
		Use:   "wait <target> [--until STATUS]... [--timeout MS]",
		Short: summary("agent.wait"),
		Long: summary("agent.wait") + `; prints the agent's record. It answers at once
when the agent already has one of the statuses, and fails with
agent_not_running when the agent exits or is replaced.

` + untilHelp + "\n\n" + targetHelp,
		Example: `  herdr agent wait reviewer --until finished --timeout 600000
  herdr agent wait w1:p2 --until blocked`,
		Args: exactArgs("<target>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			until, timeout, err := u.resolve(cmd)
			if err != nil {
				return err
			}
			return exit(a.call("cli:agent:wait", "agent.wait", protocol.AgentWaitParams{Target: args[0], Until: until, TimeoutMS: timeout}))
		},
	}
	u.bind(cmd)
	return cmd
}

// agentPollInterval is how often agent start checks the new agent.
var agentPollInterval = 100 * time.Millisecond

func (a *app) agentStartCmd() *cobra.Command {
	var (
		kind, pane string
		timeout    uint64
	)
	cmd := &cobra.Command{
		Use:   "start <name> --kind KIND --pane ID [--timeout MS] [-- <agent args…>]",
		Short: summary("agent.start"),
		Long: summary("agent.start") + `: the pane must be a shell with nothing running.
The command line is typed into it, quoted for that shell (POSIX shells, fish,
PowerShell; another shell takes plain words only), then this waits until the agent is up and
ready for input (default 30000 ms, more than 3000 and at most 300000) and
prints the agent_started response. A program the shell cannot run (not
found) fails at once with agent_start_failed and the shell's words. A
pane of another machine (build/w1:p2) starts the agent there, polled as
build/<name>. Kinds: ` + strings.Join(protocol.AgentKinds, " ") + ".",
		Args: minArgs("<name>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			const id = "cli:agent:start"
			if kind == "" || pane == "" {
				return errors.New("--kind and --pane are required")
			}
			name := args[0]
			p := protocol.AgentStartParams{Name: name, Kind: kind, PaneID: pane, Args: args[1:], TimeoutMS: &timeout}
			if err := validate(&p); err != nil {
				return err
			}
			var started []byte
			var terminal string
			code := a.request(id, "agent.start", p, func(line []byte, resp protocol.Response) int {
				var r protocol.AgentStarted
				if err := protocol.Unmarshal(resp.Result, &r); err != nil {
					return a.fail(id, protocol.Errorf("agent_start_failed", "unreadable agent.start result: %v", err))
				}
				started, terminal = line, r.Agent.TerminalID
				return 0
			})
			if code != 0 {
				return exit(code)
			}
			// An agent started on another machine through this one's
			// server is polled there, by its qualified name.
			target := name
			if m, _, ok := protocol.SplitQualified(pane); ok {
				target = m + "/" + name
			}
			return exit(a.awaitStarted(id, target, kind, terminal, started, time.Duration(timeout)*time.Millisecond))
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "which agent to start")
	cmd.Flags().StringVar(&pane, "pane", "", "the idle shell pane to start it in")
	cmd.Flags().Uint64Var(&timeout, "timeout", 30000, "how long to wait for the agent to be ready, in milliseconds")
	return cmd
}

// awaitStarted polls agent.get until the named agent runs the kind in the
// same terminal and is ready for input. name may be qualified
// ("build/reviewer"); the agent's own name is what follows the machine.
func (a *app) awaitStarted(id, name, kind, terminal string, started []byte, timeout time.Duration) int {
	_, own, _ := protocol.SplitQualified(name)
	// A --machine polls over one ssh connection, not one per poll.
	var machine *protocol.Client
	var sock string
	if a.usingMachine() {
		var code int
		if machine, sock, code = a.connectMachine(id); machine == nil {
			return code
		}
		defer machine.Close()
	} else {
		var err error
		if sock, err = a.socket(); err != nil {
			return a.fail(id, err)
		}
	}
	deadline := time.Now().Add(timeout)
	for {
		c := machine
		if c == nil {
			var err error
			if c, err = protocol.Connect(sock); err != nil {
				return a.fail(id, protocol.Errorf("agent_start_transport_failed", "lost the herdr server at %s: %v", sock, err))
			}
		}
		_, resp, err := roundTrip(c, id, "agent.get", protocol.AgentTarget{Target: name})
		if machine == nil {
			c.Close()
		}
		switch {
		case err != nil:
			return a.fail(id, protocol.Errorf("agent_start_transport_failed", "lost the herdr server at %s: %v", sock, err))
		case resp.Error != nil && resp.Error.Code == protocol.CodeAgentNotFound:
			if reason, ok := protocol.StartFailure(&protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message}); ok {
				return a.fail(id, protocol.Errorf(protocol.CodeAgentStartFailed, "agent %s did not start: %s", name, reason))
			}
			return a.fail(id, protocol.Errorf("agent_name_not_found", "agent %s is gone: its launch failed or was replaced", name))
		case resp.Error != nil:
			return a.fail(id, &protocol.Error{Code: resp.Error.Code, Message: resp.Error.Message})
		}
		var r protocol.AgentInfoResult
		if err := protocol.Unmarshal(resp.Result, &r); err != nil {
			return a.fail(id, protocol.Errorf("agent_start_failed", "unreadable agent.get result: %v", err))
		}
		ag := r.Agent
		if ag.TerminalID != terminal {
			return a.fail(id, protocol.Errorf("agent_name_not_found", "agent %s now names another terminal", name))
		}
		if ag.Agent != nil && *ag.Agent != kind {
			return a.fail(id, protocol.Errorf("agent_kind_mismatch", "pane runs %s, not %s", *ag.Agent, kind))
		}
		if ag.Name != nil && *ag.Name == own && ag.InteractiveReady {
			fmt.Fprintf(a.stdout, "%s\n", started)
			return 0
		}
		if time.Now().After(deadline) {
			return a.fail(id, protocol.Errorf(protocol.CodeTimeout, "agent %s was not ready within %v", name, timeout))
		}
		time.Sleep(agentPollInterval)
	}
}
