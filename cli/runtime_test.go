package cli

import (
	"errors"

	"github.com/herdr-go/herdr/tui"
)

// testRuntime stands in for herdr-full's here: with none, a command that
// needs it would exec herdr-full in place of the test binary. No test in
// this package runs a server or the client in its own process.
var testRuntime = &Runtime{
	Serve:             func(ServerOptions) error { return errors.New("no server in the cli package's tests") },
	Client:            func(ClientOptions) (bool, error) { return false, errors.New("no client in the cli package's tests") },
	ConfigDiagnostics: tui.ConfigDiagnostics,
}
