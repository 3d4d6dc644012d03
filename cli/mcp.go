package cli

import (
	"errors"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// MCPOptions are what `herdr mcp` serves with (herdr-full runs package
// mcp with them; the front links no MCP SDK, whose packages would cost
// every one-shot command their initialisation).
type MCPOptions struct {
	// Socket is the session's API socket, whose server answered a ping.
	Socket string
	// Config is config.toml's [mcp].
	Config config.MCP
	// Policy is the [[policy]] every connection declares (--policy), ""
	// for none; the connections say they are MCP's either way, so the
	// audit log has their calls.
	Policy string
	// CallerPane is the pane this process runs in (HERDR_PANE_ID) when
	// that pane is of this session, else "".
	CallerPane string
	// In and Out carry MCP (stdio); Warn gets one-line warnings.
	In   io.Reader
	Out  io.Writer
	Warn io.Writer
}

func (a *app) mcpCmd() *cobra.Command {
	var policy string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol on stdin and stdout, for coding agents",
		Long: `Serve the Model Context Protocol over stdio: an agent (Claude Code, Codex, …)
launches ` + "`herdr mcp`" + ` and gets typed tools to list workspaces, panes and agents,
read panes, send text and keys, start agents in new panes or worktrees, prompt
them, wait for their status or for output, focus and close; and resources:
herdr://session and herdr://pane/<id> (subscribable). It talks to the
session's server (--session), starting it when none runs. config.toml's [mcp]
says which tools are offered (allow, allow_start, allow_close); the pane this
runs in (HERDR_PANE_ID) is never closed by it unless allow_close_caller.
--policy NAME limits every call to a [[policy]] of config.toml (read_only,
methods, workspaces, machines), checked by the server; the calls are in the
audit log (herdr audit) with or without one.
` + "`herdr integration install claude`" + ` registers it with Claude Code.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.rt == nil || a.rt.MCP == nil {
				return exit(a.handToFull())
			}
			return exit(a.serveMCP(policy))
		},
	}
	cmd.Flags().StringVar(&policy, "policy", "", "limit every call to the [[policy]] named `NAME` in config.toml")
	return cmd
}

// serveMCP makes sure the session's server runs, then serves MCP until
// the client closes stdin.
func (a *app) serveMCP(policy string) int {
	const id = "cli:mcp"
	cfg, _, _ := config.Load(config.Path(a.env))
	if policy != "" {
		if _, err := cfg.FindPolicy(policy); err != nil {
			return a.fail(id, protocol.Errorf(protocol.CodeInvalidParams, "herdr mcp --policy: %v", err))
		}
	}
	sock, err := a.socket()
	if err != nil {
		return a.fail(id, err)
	}
	if conn, err := protocol.Dial(sock, time.Second); err == nil {
		conn.Close()
	} else if errors.Is(err, protocol.ErrUnsafeSocket) {
		return a.fail(id, unsafeSocket(err))
	} else if code := a.startServer(sock); code != 0 {
		return code
	}
	c, _, code := a.connect(id) // pings and checks the protocol
	if c == nil {
		return code
	}
	c.Close()
	caller := a.env("HERDR_PANE_ID")
	if s := a.env("HERDR_SOCKET_PATH"); s != "" && s != sock {
		caller = "" // a pane of another session
	}
	if err := a.rt.MCP(MCPOptions{Socket: sock, Config: cfg.MCP, Policy: policy, CallerPane: caller, In: a.stdin, Out: a.stdout, Warn: a.stderr}); err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInternal, "mcp: %v", err))
	}
	return 0
}
