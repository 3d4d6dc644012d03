package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/server"
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
		RunE: func(cmd *cobra.Command, args []string) error { return exit(a.runServer()) },
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
config_reload result: status applied, partial or failed, with diagnostics.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.call("cli:server:reload-config", "server.reload_config", nil))
		},
	}
	cmd.AddCommand(stop, reload)
	cmd.AddCommand(a.manifestCmds()...) // cli/manifests.go
	return cmd
}

// runServer runs server.Run in the foreground with the session's paths.
func (a *app) runServer() int {
	const id = "cli:server"
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
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
	err = server.Run(server.Options{
		SocketPath:  sock,
		ConfigPath:  configPath,
		LogPath:     filepath.Join(logDir, "herdr-server.log"),
		Env:         a.env,
		Banner:      a.stderr,
		SessionFile: a.sessionFile(sock),
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
