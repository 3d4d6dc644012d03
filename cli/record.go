package cli

import (
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// paneRecordCmd is `herdr pane record <pane> --output FILE.cast
// [--duration S]`: the server writes the file; the command waits for the
// duration or an interrupt, stops the recording and prints its summary.
func (a *app) paneRecordCmd() *cobra.Command {
	var output string
	var duration float64
	cmd := &cobra.Command{
		Use:   "record <pane> --output FILE.cast",
		Short: "Record a pane's output as asciicast v2 until --duration or Ctrl+C",
		Long: `Record a pane's output, with timestamps and resizes, as an asciicast v2 file
(play it with any asciicast player, or replay it in the web dashboard). The
server writes the file; this command waits --duration seconds, or until
interrupted, then stops the recording and prints its summary.`,
		Example: `  herdr pane record w1:p2 --output session.cast --duration 60`,
		Args:    exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return fmt.Errorf("missing --output FILE.cast")
			}
			if duration < 0 {
				return fmt.Errorf("--duration must be at least 0, got %v", duration)
			}
			path, err := a.absPath(output)
			if err != nil {
				return err
			}
			p := protocol.PaneRecordStartParams{PaneID: args[0], Path: path}
			if duration > 0 {
				// The server ends it too, should this command be killed.
				p.DurationMS = uint64(duration*1000) + 1000
			}
			if code := a.silent("cli:pane:record", "pane.record.start", p); code != 0 {
				return exit(code)
			}
			interrupt := make(chan os.Signal, 1)
			signal.Notify(interrupt, os.Interrupt)
			defer signal.Stop(interrupt)
			var until <-chan time.Time
			if duration > 0 {
				until = time.After(time.Duration(duration * float64(time.Second)))
			}
			select {
			case <-until:
			case <-interrupt:
			}
			return exit(a.call("cli:pane:record", "pane.record.stop", protocol.PaneTarget{PaneID: args[0]}))
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the recording to `FILE`")
	cmd.Flags().Float64Var(&duration, "duration", 0, "stop after `S` seconds (default: at Ctrl+C)")
	return cmd
}

// paneHistoryCmd is `herdr pane history <pane> --output FILE.cast`.
func (a *app) paneHistoryCmd() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "history <pane> --output FILE.cast",
		Short: "Save a pane's kept output as asciicast v2 ([experimental] pane_history)",
		Args:  exactArgs("<pane>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return fmt.Errorf("missing --output FILE.cast")
			}
			path, err := a.absPath(output)
			if err != nil {
				return err
			}
			return exit(a.request("cli:pane:history", "pane.history", protocol.PaneTarget{PaneID: args[0]},
				func(line []byte, resp protocol.Response) int {
					var h protocol.PaneHistory
					if err := protocol.Unmarshal(resp.Result, &h); err != nil {
						return a.fail(resp.ID, protocol.Errorf(protocol.CodeInternal, "unreadable pane.history result: %v", err))
					}
					if err := os.WriteFile(path, []byte(h.Cast), 0o600); err != nil {
						return a.fail(resp.ID, fmt.Errorf("write %s: %w", path, err))
					}
					return 0
				}))
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the history to `FILE`")
	return cmd
}
