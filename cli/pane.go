package cli

import (
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
$HERDR_PANE_ID names the pane itself (used by --current).

Layout commands (layout, edges, neighbor, focus --direction, resize, zoom,
swap) act on --pane, the calling pane with --current, else the server's
focused pane. Directions are left, right, up and down.`,
	})
	a.addVerbs(cmd,
		verb{[]string{"current"}, a.paneCurrentCmd},
		verb{[]string{"rename"}, a.paneRenameCmd},
		verb{[]string{"split"}, a.paneSplitCmd},
		verb{[]string{"clear"}, a.paneClearCmd},
		verb{[]string{"run"}, a.paneRunCmd},
		verb{[]string{"read"}, a.paneReadCmd},
		verb{[]string{"wait-output"}, a.paneWaitOutputCmd},
		verb{[]string{"focus"}, a.paneFocusCmd},
		verb{[]string{"zoom"}, a.paneZoomCmd},
		verb{[]string{"input"}, a.paneInputCmd},
		verb{[]string{"swap"}, a.paneSwapCmd},
		verb{[]string{"move"}, a.paneMoveCmd},
		verb{[]string{"record"}, a.paneRecordCmd},                      // record.go
		verb{[]string{"history"}, a.paneHistoryCmd},                    // record.go
		verb{[]string{"scrollback-editor"}, a.paneScrollbackEditorCmd}, // edit_scrollback.go
		verb{[]string{"report-metadata"}, a.paneReportMetadataCmd},     // hooks.go
	)
	// list, get, close, process-info, layout, edges, neighbor, resize,
	// send-text, send-keys and edit-scrollback: the table's (cli/fromtable.go).
	return cmd
}

// paneClearCmd is `pane clear [<pane>]`: the pane given, else the calling
// pane ($HERDR_PANE_ID), so `herdr pane clear` inside a pane clears it.
func (a *app) paneClearCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "clear [<pane>]",
		Short: summary("pane.clear"),
		Long: summary("pane.clear") + `. The pane is <pane>, else the calling pane
($HERDR_PANE_ID).`,
		Example: `  herdr pane clear w1:p2`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := a.env("HERDR_PANE_ID")
			if len(args) == 1 {
				id = args[0]
			}
			if id == "" {
				return errors.New("give the pane to clear (outside a herdr pane there is no calling pane)")
			}
			return exit(a.call("cli:pane:clear", "pane.clear", protocol.PaneTarget{PaneID: id}))
		},
	}
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

// target is the pane of a [<pane>|--pane ID|--current] command: the
// argument, else --pane, else $HERDR_PANE_ID with --current, else nil (the
// server's focused pane). --current outside a pane is a usage error.
func (s *paneSel) target(a *app, cmd *cobra.Command, args []string) (*string, error) {
	if len(args) == 1 {
		if cmd.Flags().Changed("pane") || s.current {
			return nil, errors.New("give the pane as an argument or with --pane/--current, not both")
		}
		return &args[0], nil
	}
	t := s.resolve(a, cmd, false)
	if s.current && t == nil {
		return nil, errors.New("--current needs $HERDR_PANE_ID (run it inside a herdr pane)")
	}
	return t, nil
}

// argOrResolve is the pane of a read-only [<pane>|--pane ID|--current]
// command: the argument, else what resolve finds (--current outside a pane
// falls back to the focused pane, as these commands always did).
func (s *paneSel) argOrResolve(a *app, cmd *cobra.Command, args []string) (*string, error) {
	if len(args) == 1 {
		if cmd.Flags().Changed("pane") || s.current {
			return nil, errors.New("give the pane as an argument or with --pane/--current, not both")
		}
		return &args[0], nil
	}
	return s.resolve(a, cmd, false), nil
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
		sel        paneSel
		direction  string
		ratio      float64
		rightClick string
		spawn      spawnFlags
	)
	cmd := &cobra.Command{
		Use:   "split [<pane>] --direction right|down",
		Short: summary("pane.split"),
		Long: summary("pane.split") + `. The split pane is <pane>, --pane, else the
calling pane ($HERDR_PANE_ID, so a command run inside a pane splits that
pane), else the server's focused pane. The new pane is not focused unless
--focus is given.`,
		Example: `  herdr pane split w1:p1 --direction right --ratio 0.4
  herdr pane split --current --direction down --cwd ../other`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if direction != "right" && direction != "down" {
				return fmt.Errorf("invalid --direction %q: expected right or down", direction)
			}
			target, err := sel.target(a, cmd, args)
			if err != nil {
				return err
			}
			if target == nil { // from inside a pane, that pane (Herdr 0.9.1)
				target = sel.resolve(a, cmd, true)
			}
			if err := checkRightClick(cmd, rightClick); err != nil {
				return err
			}
			cwd, env, err := spawn.resolve(a, cmd)
			if err != nil {
				return err
			}
			p := protocol.PaneSplitParams{Direction: direction, TargetPaneID: target, Cwd: cwd, Env: env, Focus: spawn.focus.value(), RightClick: rightClick}
			if cmd.Flags().Changed("ratio") {
				p.Ratio = &ratio
			}
			return exit(a.call("cli:pane:split", "pane.split", p))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&direction, "direction", "", "where the new pane goes: right or down (required)")
	cmd.Flags().Float64Var(&ratio, "ratio", 0, "share of the space kept by the split pane, between 0 and 1")
	cmd.Flags().StringVar(&rightClick, "right-click", "", "where right clicks on the new pane go: herdr (its menu) or pane (the program)")
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

// readFlags are the flags of `pane read` and `agent read`.
type readFlags struct {
	source, format string
	lines          uint32
	ansi, raw      bool
}

func (f *readFlags) bind(cmd *cobra.Command, withRaw bool) {
	cmd.Flags().StringVar(&f.source, "source", "recent", sourceHelp)
	cmd.Flags().Uint32Var(&f.lines, "lines", 0, "how many lines to read")
	cmd.Flags().StringVar(&f.format, "format", protocol.FormatText, "text or ansi")
	cmd.Flags().BoolVar(&f.ansi, "ansi", false, "same as --format ansi")
	if withRaw {
		cmd.Flags().BoolVar(&f.raw, "raw", false, "ansi format without stripping any escape sequence")
	}
}

// params checks the flags and fills the read params they set.
func (f *readFlags) params(cmd *cobra.Command, source, format *string, lines **uint32, strip **bool) error {
	src, err := wireSource(f.source)
	if err != nil {
		return err
	}
	if f.format != protocol.FormatText && f.format != protocol.FormatANSI {
		return fmt.Errorf("invalid --format %q: expected text or ansi", f.format)
	}
	if (f.ansi || f.raw) && cmd.Flags().Changed("format") && f.format != protocol.FormatANSI {
		return errors.New("--ansi and --raw read ansi; they conflict with --format text")
	}
	*source, *format = src, f.format
	if f.ansi || f.raw {
		*format = protocol.FormatANSI
	}
	if f.raw {
		*strip = protocol.Ptr(false)
	}
	if cmd.Flags().Changed("lines") {
		*lines = &f.lines
	}
	return nil
}

func (a *app) paneReadCmd() *cobra.Command {
	var f readFlags
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
			p := protocol.PaneReadParams{PaneID: args[0]}
			if err := f.params(cmd, &p.Source, &p.Format, &p.Lines, &p.StripANSI); err != nil {
				return err
			}
			return exit(a.request("cli:pane:read", "pane.read", p, a.printReadText))
		},
	}
	f.bind(cmd, true)
	return cmd
}

// printReadText prints .result.read.text raw, ending in a newline.
func (a *app) printReadText(line []byte, resp protocol.Response) int {
	var r protocol.PaneRead
	if err := protocol.Unmarshal(resp.Result, &r); err != nil {
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

// --- layout and structure ----------------------------------------------------

// checkDirection accepts the four directions of travel.
func checkDirection(flag, d string) error {
	switch d {
	case "left", "right", "up", "down":
		return nil
	}
	return fmt.Errorf("invalid --%s %q: expected left, right, up or down", flag, d)
}

// checkRightClick accepts an unset --right-click, herdr or pane.
func checkRightClick(cmd *cobra.Command, v string) error {
	if !cmd.Flags().Changed("right-click") || v == "herdr" || v == "pane" {
		return nil
	}
	return fmt.Errorf("invalid --right-click %q: expected herdr or pane", v)
}

const directionHelp = "direction: left, right, up or down"

// paneFocusCmd is `pane focus <pane>` (pane.focus) and `pane focus
// --direction D` (pane.focus_direction).
func (a *app) paneFocusCmd() *cobra.Command {
	var (
		sel       paneSel
		direction string
	)
	cmd := &cobra.Command{
		Use:   "focus (<pane> | --direction left|right|up|down [--pane ID|--current])",
		Short: "Focus a pane, or the pane beside one",
		Long: summary("pane.focus") + ` with <pane> (pane.focus). With --direction, focus
the pane beside --pane, the calling pane with --current, else the server's
focused pane (pane.focus_direction); when there is none the result says
changed:false, reason no_neighbor.`,
		Example: `  herdr pane focus w1:p2
  herdr pane focus --direction left --current`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("direction") {
				if len(args) == 0 {
					return errors.New("missing argument <pane> (or --direction)")
				}
				if cmd.Flags().Changed("pane") || sel.current {
					return errors.New("--pane and --current go with --direction; give the pane as an argument")
				}
				return exit(a.call("cli:pane:focus", "pane.focus", protocol.PaneTarget{PaneID: args[0]}))
			}
			if len(args) > 0 {
				return errors.New("give <pane> or --direction, not both (use --pane with --direction)")
			}
			if err := checkDirection("direction", direction); err != nil {
				return err
			}
			return exit(a.call("cli:pane:focus", "pane.focus_direction",
				protocol.PaneDirectionParams{Direction: direction, PaneID: sel.resolve(a, cmd, false)}))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&direction, "direction", "", "focus the pane beside the target in this "+directionHelp)
	return cmd
}

func (a *app) paneZoomCmd() *cobra.Command {
	var (
		sel             paneSel
		toggle, on, off bool
	)
	cmd := &cobra.Command{
		Use:   "zoom [<pane>|--pane ID|--current] [--toggle|--on|--off]",
		Short: summary("pane.zoom"),
		Long: summary("pane.zoom") + `. The pane is <pane>, --pane, the calling pane
with --current, else the server's focused pane; zooming a pane also focuses
it. Default --toggle. Reasons when nothing changes: single_pane,
already_zoomed, already_unzoomed.`,
		Example: `  herdr pane zoom w1:p2 --on
  herdr pane zoom --current`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := sel.target(a, cmd, args)
			if err != nil {
				return err
			}
			mode := "toggle"
			if on {
				mode = "on"
			} else if off {
				mode = "off"
			}
			return exit(a.call("cli:pane:zoom", "pane.zoom", protocol.PaneZoomParams{Mode: mode, PaneID: target}))
		},
	}
	sel.bind(cmd)
	cmd.Flags().BoolVar(&toggle, "toggle", false, "zoom the pane, or unzoom it when it is the zoomed one (default)")
	cmd.Flags().BoolVar(&on, "on", false, "zoom the pane")
	cmd.Flags().BoolVar(&off, "off", false, "unzoom the pane's tab")
	cmd.MarkFlagsMutuallyExclusive("toggle", "on", "off")
	return cmd
}

func (a *app) paneInputCmd() *cobra.Command {
	var (
		sel        paneSel
		rightClick string
	)
	cmd := &cobra.Command{
		Use:   "input [<pane>|--pane ID|--current] --right-click herdr|pane",
		Short: summary("pane.input.set"),
		Long: summary("pane.input.set") + ` (pane.input.set): herdr opens its own menu,
pane passes them to the program. The pane is <pane>, --pane or the calling
pane with --current.`,
		Example: `  herdr pane input w1:p2 --right-click pane`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRightClick(cmd, rightClick); err != nil {
				return err
			}
			target, err := sel.target(a, cmd, args)
			if err != nil {
				return err
			}
			if target == nil {
				return errors.New("missing argument <pane> (or --pane/--current)")
			}
			return exit(a.call("cli:pane:input", "pane.input.set", protocol.PaneInputSetParams{PaneID: *target, RightClick: rightClick}))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&rightClick, "right-click", "", "where right clicks go: herdr or pane (required)")
	_ = cmd.MarkFlagRequired("right-click")
	return cmd
}

func (a *app) paneSwapCmd() *cobra.Command {
	var (
		sel                    paneSel
		direction, source, dst string
	)
	cmd := &cobra.Command{
		Use:   "swap (--direction left|right|up|down [--pane ID|--current] | --source-pane ID --target-pane ID)",
		Short: summary("pane.swap"),
		Long: summary("pane.swap") + `. The split shapes and ratios stay; the panes keep
their ids and processes. With --direction the pane (--pane, the calling pane
with --current, else the server's focused pane) swaps with its neighbour; with
--target-pane it swaps with that pane (--source-pane, default as above).
Reasons when nothing changes: no_neighbor, same_pane, not_found, cross_tab.`,
		Example: `  herdr pane swap --direction right --current
  herdr pane swap --source-pane w1:p1 --target-pane w1:p3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.PaneSwapParams{PaneID: sel.resolve(a, cmd, false)}
			if cmd.Flags().Changed("direction") {
				if err := checkDirection("direction", direction); err != nil {
					return err
				}
				p.Direction = &direction
			} else {
				if dst == "" {
					return errors.New("--target-pane must not be empty")
				}
				p.SourcePaneID = optional(cmd, "source-pane", source)
				p.TargetPaneID = &dst
			}
			return exit(a.call("cli:pane:swap", "pane.swap", p))
		},
	}
	sel.bind(cmd)
	cmd.Flags().StringVar(&direction, "direction", "", "swap with the neighbour in this "+directionHelp)
	cmd.Flags().StringVar(&source, "source-pane", "", "the pane to swap (with --target-pane)")
	cmd.Flags().StringVar(&dst, "target-pane", "", "the pane to swap it with, in the same tab")
	cmd.MarkFlagsOneRequired("direction", "target-pane")
	cmd.MarkFlagsMutuallyExclusive("direction", "target-pane")
	cmd.MarkFlagsMutuallyExclusive("direction", "source-pane")
	cmd.MarkFlagsMutuallyExclusive("source-pane", "pane")
	cmd.MarkFlagsMutuallyExclusive("source-pane", "current")
	return cmd
}

func (a *app) paneMoveCmd() *cobra.Command {
	var (
		tabID, split, targetPane string
		ratio                    float64
		newTab, newWorkspace     bool
		workspace, label, tabLbl string
		focus, noFocus           bool
	)
	cmd := &cobra.Command{
		Use:   "move <pane> (--tab T --split right|down | --new-tab | --new-workspace)",
		Short: summary("pane.move"),
		Long: summary("pane.move") + `; its process keeps running.
--tab splits the tab's focused pane (or --target-pane) right or down, giving
the moved pane 1-ratio of the space; --new-tab opens a tab for it in its own
workspace (or --workspace); --new-workspace opens a workspace for it. A pane
moved to another workspace gets a new id there; the old id keeps working for
pane commands. A source tab or workspace left empty is closed and reported
(closed_tab_id, closed_workspace_id). The pane is not focused unless --focus.
Reasons when nothing changes: same_tab, zoomed_tab.`,
		Example: `  herdr pane move w1:p3 --tab w1:t2 --split right --ratio 0.6
  herdr pane move w1:p3 --new-tab --label logs
  herdr pane move w1:p3 --new-workspace --label api --tab-label server`,
		Args: exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			changed := cmd.Flags().Changed
			only := func(flag, form string, ok bool) error {
				if changed(flag) && !ok {
					return fmt.Errorf("--%s does not go with %s", flag, form)
				}
				return nil
			}
			var d protocol.PaneMoveDestination
			form := ""
			switch {
			case changed("tab"):
				form = "--tab"
				if split != "right" && split != "down" {
					return fmt.Errorf("--tab needs --split right or --split down")
				}
				d = protocol.PaneMoveDestination{Type: "tab", TabID: tabID, Split: split, TargetPaneID: optional(cmd, "target-pane", targetPane)}
				if changed("ratio") {
					d.Ratio = &ratio
				}
			case newTab:
				form = "--new-tab"
				d = protocol.PaneMoveDestination{Type: "new_tab", WorkspaceID: optional(cmd, "workspace", workspace), Label: optional(cmd, "label", label)}
			case newWorkspace:
				form = "--new-workspace"
				d = protocol.PaneMoveDestination{Type: "new_workspace", Label: optional(cmd, "label", label), TabLabel: optional(cmd, "tab-label", tabLbl)}
			default:
				return errors.New("give a destination: --tab, --new-tab or --new-workspace")
			}
			for _, c := range []struct {
				flag string
				ok   bool
			}{
				{"split", form == "--tab"}, {"target-pane", form == "--tab"}, {"ratio", form == "--tab"},
				{"workspace", form == "--new-tab"}, {"label", form != "--tab"}, {"tab-label", form == "--new-workspace"},
			} {
				if err := only(c.flag, form, c.ok); err != nil {
					return err
				}
			}
			return exit(a.call("cli:pane:move", "pane.move", protocol.PaneMoveParams{PaneID: args[0], Destination: d, Focus: focus && !noFocus}))
		},
	}
	f := cmd.Flags()
	f.StringVar(&tabID, "tab", "", "move into this existing tab")
	f.StringVar(&split, "split", "", "with --tab: put the pane right of or below the target: right or down")
	f.StringVar(&targetPane, "target-pane", "", "with --tab: split this pane of the tab (default: its focused pane)")
	f.Float64Var(&ratio, "ratio", 0.5, "with --tab: share of the space the target pane keeps, between 0 and 1")
	f.BoolVar(&newTab, "new-tab", false, "move into a new tab")
	f.StringVar(&workspace, "workspace", "", "with --new-tab: create the tab in this workspace (default: the pane's)")
	f.StringVar(&label, "label", "", "label of the new tab (--new-tab) or workspace (--new-workspace)")
	f.BoolVar(&newWorkspace, "new-workspace", false, "move into a new workspace")
	f.StringVar(&tabLbl, "tab-label", "", "with --new-workspace: label of its tab")
	f.BoolVar(&focus, "focus", false, "focus the moved pane")
	f.BoolVar(&noFocus, "no-focus", false, "do not focus the moved pane (default)")
	cmd.MarkFlagsOneRequired("tab", "new-tab", "new-workspace")
	cmd.MarkFlagsMutuallyExclusive("tab", "new-tab", "new-workspace")
	cmd.MarkFlagsMutuallyExclusive("focus", "no-focus")
	return cmd
}
