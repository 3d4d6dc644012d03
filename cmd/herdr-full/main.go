// Command herdr-full is herdr with the actor runtime and the interactive
// client linked in: the same command line as herdr, and in addition it
// runs servers and the client in its own process, which herdr hands to it
// (cli/runtime.go says why). It is a complete herdr on its own.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/herdr-go/herdr/actors/fleet"
	"github.com/herdr-go/herdr/actors/server"
	"github.com/herdr-go/herdr/cli"
	"github.com/herdr-go/herdr/cli/mcp"
	"github.com/herdr-go/herdr/protocol"
	"github.com/herdr-go/herdr/tui"
)

// runtime is what herdr-full adds to the command line. The option
// conversions fail to compile when the two sides' types drift apart.
var runtime = &cli.Runtime{
	Serve: func(o cli.ServerOptions) error { return server.Run(server.Options(o)) },
	Client: func(o cli.ClientOptions) (bool, error) {
		err := tui.Run(tui.Options(o))
		switch {
		case errors.Is(err, tui.ErrDetached):
			return true, nil
		case errors.Is(err, tui.ErrServerStopped):
			return false, cli.ErrServerStopped
		case errors.Is(err, tui.ErrServerGone):
			return false, cli.ErrServerGone
		}
		return false, err
	},
	ConfigDiagnostics: tui.ConfigDiagnostics,
	MCP:               serveMCP,
}

// serveMCP runs `herdr mcp`: package mcp on stdio, each tool call on a
// connection of its own to the session's server.
func serveMCP(o cli.MCPOptions) error {
	for _, name := range o.Config.Allow {
		if !slices.Contains(mcp.ToolNames(), name) {
			fmt.Fprintf(o.Warn, "herdr mcp: [mcp] allow names no tool %q (tools: %v)\n", name, mcp.ToolNames())
		}
	}
	return mcp.Serve(context.Background(), mcp.Options{
		Dial:       mcp.Declaring(func() (*protocol.Client, error) { return protocol.Connect(o.Socket) }, o.Policy),
		Allow:      o.Config.Allow,
		AllowStart: o.Config.AllowStart, AllowClose: o.Config.AllowClose, AllowCloseCaller: o.Config.AllowCloseCaller,
		CallerPane: o.CallerPane,
		Version:    protocol.Version,
	}, o.In, o.Out)
}

func main() {
	// nats-server, linked for the fleet's hub, starts a once-a-second
	// sampler in every process; only a hub wants it (it starts it again).
	fleet.QuietProcessSampler()
	os.Exit(cli.Main(runtime, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
