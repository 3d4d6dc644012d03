package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

func (a *app) paneCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "pane",
		Short: "Split, read, type into and inspect panes",
		Long: `Panes are terminals inside a tab. Most subcommands send one request and print
the JSON response line; send-text, send-keys and run print nothing on success,
read prints the pane's text. Pane ids look like w1:p2. Inside a herdr pane,
$HERDR_PANE_ID names the pane itself (used by --current).`,
	})
	cmd.AddCommand(
		a.paneListCmd(),
		a.paneCurrentCmd(),
		a.paneRenameCmd(),
		a.paneSplitCmd(),
		a.paneSendTextCmd(),
		a.paneSendKeysCmd(),
		a.paneRunCmd(),
		a.paneReadCmd(),
		a.paneWaitOutputCmd(),
		a.paneProcessInfoCmd(),
	)
	for _, verb := range []struct{ name, method string }{
		{"get", "pane.get"}, {"focus", "pane.focus"}, {"close", "pane.close"},
	} {
		cmd.AddCommand(&cobra.Command{
			Use:   verb.name + " <pane>",
			Short: summary(verb.method),
			Args:  exactArgs("<pane>"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return exit(a.call("cli:pane:"+verb.name, verb.method, protocol.PaneTarget{PaneID: args[0]}))
			},
		})
	}
	return cmd
}

// paneSel is the --pane ID | --current pair.
type paneSel struct {
	pane    string
	current bool
}

func (s *paneSel) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.pane, "pane", "", "target pane id")
	cmd.Flags().BoolVar(&s.current, "current", false, "target the calling pane ($HERDR_PANE_ID)")
	cmd.MarkFlagsMutuallyExclusive("pane", "current")
}

// resolve returns --pane, else $HERDR_PANE_ID when --current (or byDefault)
// and it is set, else nil: the server then uses its focused pane.
func (s *paneSel) resolve(a *app, cmd *cobra.Command, byDefault bool) *string {
	if cmd.Flags().Changed("pane") {
		return &s.pane
	}
	if s.current || byDefault {
		if id := a.env("HERDR_PANE_ID"); id != "" {
			return &id
		}
	}
	return nil
}

func (a *app) paneListCmd() *cobra.Command {
	var workspace string
	cmd := &cobra.Command{
		Use:   "list",
		Short: summary("pane.list"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:pane:list", "pane.list", protocol.PaneListParams{WorkspaceID: optional(cmd, "workspace", workspace)}))
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "only the panes of this workspace")
	return cmd
}

func (a *app) paneCurrentCmd() *cobra.Command {
	var sel paneSel
	cmd := &cobra.Command{
		Use:   "current",
		Short: summary("pane.current"),
		Long: summary("pane.current") + `. The caller is --pane, else $HERDR_PANE_ID
when set; without either the server answers with its focused pane.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:pane:current", "pane.current", protocol.PaneCurrentParams{CallerPaneID: sel.resolve(a, cmd, true)}))
		},
	}
	sel.bind(cmd)
	return cmd
}

func (a *app) paneRenameCmd() *cobra.Command {
	var clear bool
	cmd := &cobra.Command{
		Use:   "rename <pane> (<label...> | --clear)",
		Short: summary("pane.rename"),
		Long:  summary("pane.rename") + "; the label is the remaining arguments joined by spaces.",
		Example: `  herdr pane rename w1:p2 dev server
  herdr pane rename w1:p2 --clear`,
		Args: minArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.PaneRenameParams{PaneID: args[0]}
			switch {
			case clear && len(args) > 1:
				return errors.New("give a label or --clear, not both")
			case !clear && len(args) == 1:
				return errors.New("missing argument <label> (or --clear)")
			case !clear:
				p.Label = protocol.Ptr(strings.Join(args[1:], " "))
			}
			return exit(a.call("cli:pane:rename", "pane.rename", p))
		},
	}
	cmd.Flags().BoolVar(&clear, "clear", false, "clear the label")
	return cmd
}

func (a *app) paneSplitCmd() *cobra.Command {
	var (
		sel       paneSel
		direction string
		ratio     float64
		spawn     spawnFlags
	)
	cmd := &cobra.Command{
		Use:   "split [<pane>] --direction right|down",
		Short: summary("pane.split"),
		Long: summary("pane.split") + `. The split pane is <pane>, --pane, the calling
pane with --current, else the server's focused pane. The new pane is not
focused unless --focus is given.`,
		Example: `  herdr pane split w1:p1 --direction right --ratio 0.4
  herdr pane split --current --direction down --cwd ../other`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if direction != "right" && direction != "down" {
				return fmt.Errorf("invalid --direction %q: expected right or down", direction)
			}
			var target *string
			switch {
			case len(args) == 1 && (cmd.Flags().Changed("pane") || sel.current):
				return errors.New("give the pane as an argument or with --pane/--current, not both")
			case len(args) == 1:
				target = &args[0]
			default:
				target = sel.resolve(a, cmd, false)
				if sel.current && target == nil {
					return errors.New("--current needs $HERDR_PANE_ID (run it inside a herdr pane)")
				}
			}
			cwd, env, err := spawn.resolve(a, cmd)
			if err != nil {
				return err
			}
			p := protocol.PaneSplitParams{Direction: direction, TargetPaneID: target, Cwd: cwd, Env: env, Focus: spawn.focus.value()}
			if cmd.Flags().Changed("ratio") {
				p.Ratio = &ratio
			}
			return exit(a.call("cli:pane:split", "pane.split", p))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&direction, "direction", "", "where the new pane goes: right or down (required)")
	cmd.Flags().Float64Var(&ratio, "ratio", 0, "share of the space kept by the split pane, between 0 and 1")
	spawn.bind(cmd, "pane")
	_ = cmd.MarkFlagRequired("direction")
	return cmd
}

// silentCmd is a send-style command: positional arguments only, flags stop at
// the first argument so text like "-la" reaches the pane.
func silentCmd(cmd *cobra.Command) *cobra.Command {
	cmd.Flags().SetInterspersed(false)
	cmd.Long += "\n\nFlags such as --session go before <pane>; every argument after it is sent as is."
	return cmd
}

func (a *app) paneSendTextCmd() *cobra.Command {
	return silentCmd(&cobra.Command{
		Use:   "send-text <pane> <text...>",
		Short: summary("pane.send_text"),
		Long: summary("pane.send_text") + `: the remaining arguments joined by spaces, with no
Enter. Prints nothing on success.`,
		Example: `  herdr pane send-text w1:p2 'ls -la'`,
		Args:    minArgs("<pane>", "<text>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.silent("cli:pane:send-text", "pane.send_text",
				protocol.PaneSendTextParams{PaneID: args[0], Text: strings.Join(args[1:], " ")}))
		},
	})
}

func (a *app) paneSendKeysCmd() *cobra.Command {
	return silentCmd(&cobra.Command{
		Use:   "send-keys <pane> <key>...",
		Short: summary("pane.send_keys"),
		Long: summary("pane.send_keys") + `, in order, e.g. Enter, ctrl+c, alt+x, Up,
F5. Prints nothing on success.`,
		Example: `  herdr pane send-keys w1:p2 ctrl+c
  herdr pane send-keys w1:p2 Up Enter`,
		Args: minArgs("<pane>", "<key>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.silent("cli:pane:send-keys", "pane.send_keys",
				protocol.PaneSendKeysParams{PaneID: args[0], Keys: args[1:]}))
		},
	})
}

func (a *app) paneRunCmd() *cobra.Command {
	return silentCmd(&cobra.Command{
		Use:   "run <pane> <command...>",
		Short: "Type a command into a pane and press Enter",
		Long: `Type a command line into a pane and press Enter (pane.send_input with the
remaining arguments joined by spaces and the key Enter). Prints nothing on
success.`,
		Example: `  herdr pane run w1:p2 cargo test
  herdr pane run w1:p2 'make && ./app'`,
		Args: minArgs("<pane>", "<command>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.silent("cli:pane:run", "pane.send_input",
				protocol.PaneSendInputParams{PaneID: args[0], Text: strings.Join(args[1:], " "), Keys: []string{"Enter"}}))
		},
	})
}

// wireSource maps the CLI spelling of a read source to the wire one.
func wireSource(s string) (string, error) {
	switch s {
	case protocol.SourceVisible, protocol.SourceRecent, protocol.SourceDetection:
		return s, nil
	case "recent-unwrapped", protocol.SourceRecentUnwrapped:
		return protocol.SourceRecentUnwrapped, nil
	}
	return "", fmt.Errorf("invalid --source %q: expected visible, recent, recent-unwrapped or detection", s)
}

const sourceHelp = "what to read: visible (the screen), recent (scrollback tail), recent-unwrapped (tail with soft wraps joined) or detection"

func (a *app) paneReadCmd() *cobra.Command {
	var (
		source, format string
		lines          uint32
		ansi, raw      bool
	)
	cmd := &cobra.Command{
		Use:   "read <pane>",
		Short: summary("pane.read"),
		Long: summary("pane.read") + ` and print the text itself (not JSON). Default:
recent output as plain text. --ansi keeps colours; --raw keeps every escape
sequence.`,
		Example: `  herdr pane read w1:p2 --lines 50
  herdr pane read w1:p2 --source visible --ansi`,
		Args: exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := wireSource(source)
			if err != nil {
				return err
			}
			if format != protocol.FormatText && format != protocol.FormatANSI {
				return fmt.Errorf("invalid --format %q: expected text or ansi", format)
			}
			if (ansi || raw) && cmd.Flags().Changed("format") && format != protocol.FormatANSI {
				return errors.New("--ansi and --raw read ansi; they conflict with --format text")
			}
			p := protocol.PaneReadParams{PaneID: args[0], Source: src, Format: format}
			if ansi || raw {
				p.Format = protocol.FormatANSI
			}
			if raw {
				p.StripANSI = protocol.Ptr(false)
			}
			if cmd.Flags().Changed("lines") {
				p.Lines = &lines
			}
			return exit(a.request("cli:pane:read", "pane.read", p, a.printReadText))
		},
	}
	cmd.Flags().StringVar(&source, "source", "recent", sourceHelp)
	cmd.Flags().Uint32Var(&lines, "lines", 0, "how many lines to read")
	cmd.Flags().StringVar(&format, "format", protocol.FormatText, "text or ansi")
	cmd.Flags().BoolVar(&ansi, "ansi", false, "same as --format ansi")
	cmd.Flags().BoolVar(&raw, "raw", false, "ansi format without stripping any escape sequence")
	return cmd
}

// printReadText prints .result.read.text raw, ending in a newline.
func (a *app) printReadText(line []byte, resp protocol.Response) int {
	var r protocol.PaneRead
	if err := json.Unmarshal(resp.Result, &r); err != nil {
		return a.fail(resp.ID, protocol.Errorf(protocol.CodeInternal, "unreadable pane.read result %s: %v", line, err))
	}
	_, _ = io.WriteString(a.stdout, r.Read.Text)
	if !strings.HasSuffix(r.Read.Text, "\n") {
		_, _ = io.WriteString(a.stdout, "\n")
	}
	return 0
}

func (a *app) paneWaitOutputCmd() *cobra.Command {
	var (
		match, regex, source string
		lines                uint32
		timeout              uint64
		raw                  bool
	)
	cmd := &cobra.Command{
		Use:   "wait-output <pane> (--match TEXT | --regex RE)",
		Short: summary("pane.wait_for_output"),
		Long: summary("pane.wait_for_output") + ` (a substring with --match, a regular
expression with --regex), then print the output_matched JSON line. Without
--timeout it waits until the output appears or the pane goes away.`,
		Example: `  herdr pane wait-output w1:p2 --match 'test result:' --timeout 60000
  herdr pane wait-output w1:p2 --regex '^\$ $' --source visible`,
		Args: exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := wireSource(source)
			if err != nil {
				return err
			}
			p := protocol.PaneWaitForOutputParams{PaneID: args[0], Source: src, Match: protocol.OutputMatch{Type: "substring", Value: match}}
			if cmd.Flags().Changed("regex") {
				p.Match = protocol.OutputMatch{Type: "regex", Value: regex}
			}
			if cmd.Flags().Changed("lines") {
				p.Lines = &lines
			}
			if cmd.Flags().Changed("timeout") {
				p.TimeoutMS = &timeout
			}
			if raw {
				p.StripANSI = protocol.Ptr(false)
			}
			return exit(a.call("cli:pane:wait-output", "pane.wait_for_output", p))
		},
	}
	cmd.Flags().StringVar(&match, "match", "", "wait for this substring")
	cmd.Flags().StringVar(&regex, "regex", "", "wait for a line matching this regular expression")
	cmd.MarkFlagsOneRequired("match", "regex")
	cmd.MarkFlagsMutuallyExclusive("match", "regex")
	cmd.Flags().StringVar(&source, "source", "recent", sourceHelp)
	cmd.Flags().Uint32Var(&lines, "lines", 0, "how many lines to search")
	cmd.Flags().Uint64Var(&timeout, "timeout", 0, "give up after this many milliseconds (error code timeout)")
	cmd.Flags().BoolVar(&raw, "raw", false, "match against output with escape sequences kept")
	return cmd
}

func (a *app) paneProcessInfoCmd() *cobra.Command {
	var sel paneSel
	cmd := &cobra.Command{
		Use:   "process-info",
		Short: summary("pane.process_info"),
		Long: summary("pane.process_info") + ` of --pane, the calling pane with
--current, else the server's focused pane.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:pane:process-info", "pane.process_info", protocol.PaneProcessInfoParams{PaneID: sel.resolve(a, cmd, false)}))
		},
	}
	sel.bind(cmd)
	return cmd
}
