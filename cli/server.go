package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// How `herdr server stop` waits for the socket to go away.
var (
	stopPollInterval = 25 * time.Millisecond
	stopTimeout      = 15 * time.Second
)

func (a *app) serverCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Run the herdr server in the foreground",
		Long: `Run the herdr server in the foreground: bind the session's API socket, print
a banner on stderr and serve until stopped by 'herdr server stop' or a signal.

Config: $HERDR_CONFIG_PATH, else config.toml in the config directory.
Log:    herdr-server.log in the state directory (sessions/NAME/ for a named session).`,
		Example: `  herdr server
  herdr --session work server
  herdr server stop`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return exit(a.foreground()) },
	}

	stop := &cobra.Command{
		Use:   "stop",
		Short: "Stop the server and every pane, waiting until its socket is gone",
		Long: `Ask the server to stop (server.stop), then wait until its socket refuses
connections (up to 15 s). Prints nothing on success. Works across protocol
versions, so an outdated server can always be stopped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return exit(a.stopServer()) },
	}

	reload := &cobra.Command{
		Use:   "reload-config",
		Short: summary("server.reload_config"),
		Long: summary("server.reload_config") + ` (server.reload_config). Prints the
config_reload result: status applied, partial or failed, with diagnostics,
and restart_required: the changed keys the server reads only as it starts
(web.listen, terminal.kitty_graphics, …), also named on stderr. Every
other key, [tasks] and [remote] ssh_command included, applies at once.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.request("cli:server:reload-config", "server.reload_config", nil, a.printReload))
		},
	}
	cmd.AddCommand(stop, reload, a.handoffCmd("live-handoff"), a.handoffCmd("handoff"))
	cmd.AddCommand(a.manifestCmds()...) // cli/manifests.go
	return cmd
}

// handoffCmd is `server live-handoff` (Herdr's name) and `server handoff`.
func (a *app) handoffCmd(name string) *cobra.Command {
	var exe, version string
	var proto uint32
	cmd := &cobra.Command{
		Use:   name + " [--import-exe PATH] [--expected-protocol N] [--expected-version V]",
		Short: "Hand every pane, its program still running, to a new server process",
		Long: `Hand the running server over to a new server process (server.live_handoff)
without stopping any program in any pane: the new server (--import-exe, or
--binary, else this binary) takes the socket, every terminal and the session's
state; the old one exits. Clients reconnect. When anything fails before the new
server is ready, the old one goes on as before and the error says why. Works
across protocol versions, as upgrading is what it is for. Not on Windows.`,
		Example: `  herdr server ` + name + `
  herdr server ` + name + ` --import-exe /usr/local/bin/herdr --expected-version 0.6.0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			prm := protocol.ServerLiveHandoffParams{}
			if cmd.Flags().Changed("import-exe") || cmd.Flags().Changed("binary") {
				abs, err := filepath.Abs(exe)
				if err != nil {
					return err
				}
				prm.ImportExe = &abs
			}
			if cmd.Flags().Changed("expected-protocol") {
				prm.ExpectedProtocol = &proto
			}
			if cmd.Flags().Changed("expected-version") {
				prm.ExpectedVersion = &version
			}
			return exit(a.handoff(prm))
		},
	}
	cmd.Flags().StringVar(&exe, "import-exe", "", "the new server's binary (default: this one)")
	cmd.Flags().StringVar(&exe, "binary", "", "the same as --import-exe")
	cmd.Flags().Uint32Var(&proto, "expected-protocol", 0, "refuse unless the new binary speaks protocol N")
	cmd.Flags().StringVar(&version, "expected-version", "", "refuse unless the new binary is version V")
	cmd.MarkFlagsMutuallyExclusive("import-exe", "binary")
	return cmd
}

// handoff asks the running server for a live handoff and waits for the
// new server to take over.
func (a *app) handoff(prm protocol.ServerLiveHandoffParams) int {
	const id = "cli:server:live-handoff"
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	c, err := protocol.Connect(sock)
	if err != nil {
		return a.fail(id, err)
	}
	defer c.Close()
	_ = c.Conn().SetDeadline(time.Now().Add(time.Minute))
	line, resp, err := roundTrip(c, id, "server.live_handoff", prm)
	switch {
	case err != nil:
		return a.fail(id, lostConnection(sock, err))
	case resp.Error != nil:
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	fmt.Fprintln(a.stderr, "live handoff complete")
	return 0
}

// foreground runs a server in the foreground with the session's paths.
func (a *app) foreground() int {
	const id = "cli:server"
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	if a.rt == nil {
		return a.handToFull() // before any file is touched
	}
	configPath := a.env("HERDR_CONFIG_PATH")
	if configPath == "" {
		configPath = filepath.Join(protocol.ConfigDir(a.env), "config.toml")
	}
	logDir := protocol.StateDir(a.env)
	if name := a.serverSession(sock); name != protocol.DefaultSession {
		logDir = filepath.Join(logDir, "sessions", name)
	}
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		fmt.Fprintf(a.stderr, "error: create log directory: %v\n", err)
		return 1
	}
	err = a.rt.Serve(ServerOptions{
		SocketPath:  sock,
		ConfigPath:  configPath,
		LogPath:     filepath.Join(logDir, "herdr-server.log"),
		Env:         a.env,
		Banner:      a.stderr,
		SessionFile: a.sessionFile(sock),
		BinPath:     a.frontBinary(),
	})
	if err == nil {
		return 0
	}
	if errors.Is(err, protocol.ErrServerRunning) {
		fmt.Fprintf(a.stderr, "error: herdr server is already running\napi socket: %s\n", sock)
		return 1
	}
	fmt.Fprintf(a.stderr, "error: %v\n", err)
	return 1
}

// sessionFile is where the session whose server runs at sock is kept.
func (a *app) sessionFile(sock string) string {
	return filepath.Join(protocol.SessionDir(a.env, a.serverSession(sock)), "session.json")
}

// serverSession names the session whose server runs at sock, for its log
// directory: the explicit --session, else what the socket path says.
func (a *app) serverSession(sock string) string {
	if a.session != "" {
		return a.session
	}
	name := protocol.SessionOf(a.env, sock)
	if !protocol.ValidSessionName(name) {
		return protocol.DefaultSession
	}
	return name
}

// stopServer sends server.stop without the protocol gate (an old server must
// stay stoppable) and polls until the socket refuses connections.
func (a *app) stopServer() int {
	const id = "cli:session:stop" // Herdr's id for this request
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	if msg := stopAt(sock, "herdr server"); msg != "" {
		fmt.Fprintln(a.stderr, msg)
		return 1
	}
	return 0
}

// stopAt stops the server at sock and waits until its socket is gone. It
// returns "" when stopped, else the message saying why not (what names
// the server in it).
func stopAt(sock, what string) string {
	c, err := protocol.Connect(sock)
	if err != nil {
		return fmt.Sprintf("%s is not running or cannot be reached at %s: %v", what, sock, err)
	}
	_ = c.Conn().SetDeadline(time.Now().Add(pingTimeout))
	line, resp, err := roundTrip(c, "cli:session:stop", "server.stop", nil)
	c.Close()
	if err == nil && resp.Error != nil {
		return string(line)
	}
	// A transport error here usually means the server went away mid-answer;
	// the poll below decides.
	deadline := time.Now().Add(stopTimeout)
	for {
		conn, err := protocol.Dial(sock, 250*time.Millisecond)
		if err != nil && protocol.IsNotRunning(err) {
			return ""
		}
		if err == nil {
			conn.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Sprintf("%s did not stop within %dms; socket is still reachable at %s", what, stopTimeout.Milliseconds(), sock)
		}
		time.Sleep(stopPollInterval)
	}
}

// printReload prints the config_reload line, then, on stderr, the keys
// that apply only at the next start.
func (a *app) printReload(line []byte, resp protocol.Response) int {
	a.printLine(line, resp)
	var r protocol.ConfigReload
	if protocol.Unmarshal(resp.Result, &r) == nil && len(r.RestartRequired) > 0 {
		fmt.Fprintf(a.stderr, "herdr: %s apply only after a restart (`%s`, then `%s`); the rest of the file is applied\n",
			strings.Join(r.RestartRequired, ", "), a.herdrCmd("server stop"), a.herdrCmd(""))
	}
	return 0
}
