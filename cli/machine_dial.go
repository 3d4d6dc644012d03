package cli

import (
	"fmt"
	"io"
	"net"

	"github.com/herdr-go/herdr/actors/machines/saved"
)

// dialMachine is the interactive client's way to a saved machine's server
// (tui.Options.DialMachine), for a remote workspace chosen in its
// sidebar: the ssh to the bridge --machine uses, in BatchMode, since the
// client redials in the background and must never prompt. ssh's own
// messages are dropped: the client draws the terminal, and a failure
// shows there as the pane reconnecting.
func (a *app) dialMachine(key string) (net.Conn, error) {
	f, err := saved.Load(saved.Path(a.env))
	if err != nil {
		return nil, err
	}
	i := f.Find(key)
	if i < 0 {
		if bad, ok := f.FindInvalid(key); ok {
			return nil, bad.Unusable()
		}
		return nil, unknownMachine(key)
	}
	p := f.Machines[i]
	if !p.Enabled {
		return nil, fmt.Errorf("machine %q is disabled", p.Label)
	}
	ssh, err := a.sshCommand()
	if err != nil {
		return nil, err
	}
	argv, err := saved.Command(ssh, []string{"-o", "BatchMode=yes"}, p.Target, saved.RemoteBridge(p.RemoteBin, p.RemoteSession))
	if err != nil {
		return nil, err
	}
	return startPipe(argv, io.Discard)
}
