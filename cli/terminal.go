package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

const terminalTargetHelp = `TARGET is a terminal id (term_…), a pane id in any form pane.get takes, or an
agent's name or agent label when exactly one pane matches.`

func (a *app) terminalCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "terminal",
		Short: "Attach to, observe or control one terminal's stream; set the window title",
		Long: `Attach to, observe or control one terminal's stream; set the window title.

observe and control print Herdr's NDJSON stream on stdout: terminal.frame
lines ({"type":"terminal.frame","seq","encoding":"ansi","width","height",
"full","bytes":<base64 ANSI>}), then one terminal.closed line with a reason.
Frames show the pane's screen from its top-left corner in a WIDTH × HEIGHT
view; the pane keeps the size its tab gives it. Here the stream travels over
the JSON socket API (screen.subscribe), not Herdr's binary client socket.

` + terminalTargetHelp,
	})
	session := a.group(&cobra.Command{Use: "session", Short: "Observe or control a terminal as an NDJSON stream"})
	session.AddCommand(a.terminalObserveCmd(), a.terminalControlCmd())
	title := a.group(&cobra.Command{Use: "title", Short: "Set or clear the attached client's window title"})
	// set and clear: the table's (cli/fromtable.go).
	cmd.AddCommand(a.terminalAttachCmd(), session, title)
	return cmd
}

// sizeFlags are --cols and --rows of observe and control (default 120×40).
type sizeFlags struct{ cols, rows string }

func (f *sizeFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.cols, "cols", strconv.Itoa(protocol.TerminalDefaultCols), "width of the frames in cells")
	cmd.Flags().StringVar(&f.rows, "rows", strconv.Itoa(protocol.TerminalDefaultRows), "height of the frames in cells")
}

func (f *sizeFlags) parse() (int, int, error) {
	cols, err := dimension("--cols", f.cols)
	if err != nil {
		return 0, 0, err
	}
	rows, err := dimension("--rows", f.rows)
	return cols, rows, err
}

func dimension(flag, v string) (int, error) {
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer between 1 and 65535, got %q", flag, v)
	}
	if n == 0 {
		return 0, fmt.Errorf("%s must be greater than 0", flag)
	}
	return int(n), nil
}

func (a *app) terminalObserveCmd() *cobra.Command {
	var size sizeFlags
	cmd := &cobra.Command{
		Use:   "observe <target> [--cols N] [--rows N]",
		Short: "Print a terminal's screen as terminal.frame lines until it ends (read-only)",
		Long:  "Print a terminal's screen as terminal.frame lines until it ends (read-only).\n\n" + terminalTargetHelp,
		Args:  exactArgs("<target>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cols, rows, err := size.parse()
			if err != nil {
				return err
			}
			s := &termStream{a: a, id: "cli:terminal:session:observe", target: args[0], action: "observe", cv: newCanvas(cols, rows)}
			jsonFrames(s, a.stdout)
			return exit(s.run(nil))
		},
	}
	size.bind(cmd)
	return cmd
}

func (a *app) terminalControlCmd() *cobra.Command {
	var (
		size     sizeFlags
		takeover bool
	)
	cmd := &cobra.Command{
		Use:   "control <target> [--takeover] [--cols N] [--rows N]",
		Short: "Stream a terminal like observe and drive it with NDJSON on stdin",
		Long: `Stream a terminal like observe and drive it with NDJSON lines on stdin:
  {"type":"terminal.input","text":"ls\r"}      or "bytes":<base64>
  {"type":"terminal.resize","cols":100,"rows":30}   (the size of the frames)
  {"type":"terminal.scroll","direction":"up","lines":5,"source":"wheel"|"page_key"}
  {"type":"terminal.mouse","action":"down"|"up"|"drag"|"move","button":"left"|"right"|"middle","column":0,"row":0}
                                              (sent as the program asked for the mouse; else dropped)
  {"type":"terminal.release"}                 (also at end of input)
A terminal has one controller: another one is refused unless it passes
--takeover, and the one taken over from ends with "terminal attach taken over".

` + terminalTargetHelp,
		Args: exactArgs("<target>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cols, rows, err := size.parse()
			if err != nil {
				return err
			}
			s := &termStream{a: a, id: "cli:terminal:session:control", target: args[0], action: "control", control: true, takeover: takeover, cv: newCanvas(cols, rows)}
			jsonFrames(s, a.stdout)
			return exit(s.run(controlInput(a.stdin, a.stderr)))
		},
	}
	cmd.Flags().BoolVar(&takeover, "takeover", false, "replace the terminal's current controller")
	size.bind(cmd)
	return cmd
}
