package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// sessionInfo describes one named session, as `session list --json` shows it.
type sessionInfo = protocol.SessionInfo

func (a *app) sessionInfo(name string) sessionInfo {
	dir := protocol.SessionDir(a.env, name)
	sock := filepath.Join(dir, protocol.SocketName)
	running := false
	if c, err := protocol.Dial(sock, 250*time.Millisecond); err == nil {
		c.Close()
		running = true
	}
	return sessionInfo{Name: name, Default: name == protocol.DefaultSession, Running: running, SocketPath: sock, SessionDir: dir}
}

// sessions lists the default session, then every named one, by name.
func (a *app) sessions() ([]sessionInfo, error) {
	out := []sessionInfo{a.sessionInfo(protocol.DefaultSession)}
	entries, err := os.ReadDir(filepath.Join(protocol.ConfigDir(a.env), "sessions"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != protocol.DefaultSession && protocol.ValidSessionName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for _, n := range names {
		out = append(out, a.sessionInfo(n))
	}
	return out, nil
}

// sessionError prints a session command's error as Herdr does.
func (a *app) sessionError(code, message string) error {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": message}})
	fmt.Fprintln(a.stderr, string(b))
	return exitCode(1)
}

func (a *app) printJSON(v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	fmt.Fprintln(a.stdout, string(b))
}

func (a *app) sessionCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "session",
		Short: "List, attach, stop and delete named sessions",
		Long: `Every session is an independent server with its own socket, panes and
session file: the default one in the config directory, named ones under
<config dir>/sessions/NAME. These commands work locally, without a server.`,
	})
	var asJSON bool
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the sessions and whether each server runs",
		Long:  "List the sessions and whether each server runs: a table at a terminal; with --json or when piped, one line {\"sessions\":[…]}, Herdr's shape.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all, err := a.sessions()
			if err != nil {
				return a.sessionError("session_list_failed", err.Error())
			}
			if asJSON || !a.stdoutIsTerminal() {
				// Herdr's own shape for this local list, which its scripts read.
				b, err := json.Marshal(map[string]any{"sessions": all})
				if err != nil {
					return a.sessionError("session_list_failed", err.Error())
				}
				fmt.Fprintf(a.stdout, "%s\n", b)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			drawSessions(tw, all)
			return tw.Flush()
		},
	}
	jsonFlag(list, &asJSON)

	attach := &cobra.Command{
		Use:   "attach <name>",
		Short: "Attach the interactive client to a session, starting its server if needed",
		Args:  exactArgs("<name>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !protocol.ValidSessionName(args[0]) {
				return fmt.Errorf("invalid session name %q: use 1-64 of A-Z a-z 0-9 . _ -", args[0])
			}
			a.session = args[0]
			return exit(a.attach())
		},
	}

	named := func(use, short string, run func(name string) (any, string, string)) *cobra.Command {
		var asJSON bool
		c := &cobra.Command{
			Use:   use + " <name> [--json]",
			Short: short,
			Args:  exactArgs("<name>"),
			RunE: func(cmd *cobra.Command, args []string) error {
				if !protocol.ValidSessionName(args[0]) {
					return a.sessionError(protocol.CodeInvalidSessionName, fmt.Sprintf("invalid session name %q: use 1-64 of A-Z a-z 0-9 . _ -", args[0]))
				}
				result, text, code := run(args[0])
				if code != "" {
					return a.sessionError(code, text)
				}
				if asJSON {
					a.printJSON(result)
				} else {
					fmt.Fprintln(a.stdout, text)
				}
				return nil
			},
		}
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		return c
	}
	stop := named("stop", "Stop a session's server, waiting until its socket is gone", func(name string) (any, string, string) {
		info := a.sessionInfo(name)
		if msg := stopAt(info.SocketPath, "session "+name); msg != "" {
			return nil, msg, "session_stop_failed"
		}
		info.Running = false
		return map[string]any{"stopped": true, "session": info}, "stopped session " + name, ""
	})
	del := named("delete", "Delete a stopped session, its directory and its state (log)", func(name string) (any, string, string) {
		if name == protocol.DefaultSession {
			return nil, "deleting the default session is not supported", "session_delete_failed"
		}
		info := a.sessionInfo(name)
		if info.Running {
			return nil, fmt.Sprintf("session %s is running; stop it before deleting", name), "session_delete_failed"
		}
		// Its state (the server log) goes first: a failure there leaves
		// the session itself whole, to be deleted again.
		if err := os.RemoveAll(filepath.Join(protocol.StateDir(a.env), "sessions", name)); err != nil {
			return nil, err.Error(), "session_delete_failed"
		}
		if err := os.RemoveAll(info.SessionDir); err != nil {
			return nil, err.Error(), "session_delete_failed"
		}
		return map[string]any{"deleted": true, "session": info}, "deleted session " + name, ""
	})
	cmd.AddCommand(list, attach, stop, del)
	return cmd
}
