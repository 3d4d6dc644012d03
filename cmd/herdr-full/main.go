// Command herdr-full is herdr with the actor runtime and the interactive
// client linked in: the same command line as herdr, and in addition it
// runs servers and the client in its own process, which herdr hands to it
// (cli/runtime.go says why). It is a complete herdr on its own.
package main

import (
	"errors"
	"os"

	"github.com/herdr-go/herdr/actors/server"
	"github.com/herdr-go/herdr/cli"
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
}

func main() {
	os.Exit(cli.Main(runtime, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
