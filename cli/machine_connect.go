package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// --machine LABEL-OR-ID: socket commands reach that machine's server
// through `ssh ... herdr remote-client-bridge`, the connection --remote
// uses, instead of the local socket (connect in root.go asks here).

// errMachineLocal refuses --machine on a command that only works with
// the local socket, so it never acts on the local server by mistake.
var errMachineLocal = errors.New("--machine works with commands that call a server's API (workspace, tab, pane, agent, ...); this one runs against the local server only")

// machineProfile resolves --machine to an enabled saved machine.
func (a *app) machineProfile() (saved.Profile, error) {
	if a.sessionFlag != nil && a.sessionFlag() {
		return saved.Profile{}, errors.New("--machine and --session cannot be used together: a machine's session is its profile's --remote-session")
	}
	f, err := saved.Load(saved.Path(a.env))
	if err != nil {
		return saved.Profile{}, err
	}
	i := f.Find(a.machine)
	if i < 0 {
		if bad, ok := f.FindInvalid(a.machine); ok {
			return saved.Profile{}, bad.Unusable()
		}
		return saved.Profile{}, unknownMachine(a.machine)
	}
	p := f.Machines[i]
	if !p.Enabled {
		return saved.Profile{}, fmt.Errorf("machine %q is disabled; `herdr machine enable %s` allows it again", p.Label, p.ID)
	}
	return p, nil
}

// connectMachine is connect for --machine: ssh to the machine's bridge,
// a ping bounded like a local one, the protocol checked; on failure it
// has printed one line and returns a nil client.
func (a *app) connectMachine(id string) (*protocol.Client, string, int) {
	p, err := a.machineProfile()
	if err != nil {
		return nil, "", a.machineFail(err)
	}
	where := fmt.Sprintf("machine %s (%s)", p.Label, p.Target)
	c, _, err := a.reachMachine(p, nil, machineCheckTimeout)
	if errors.Is(err, errProtocol) {
		return nil, where, a.fail(id, protocol.Errorf(protocol.CodeProtocolMismatch, "%s: %v", where, err))
	}
	if err != nil {
		return nil, where, a.machineFail(fmt.Errorf("%s: %w", where, err))
	}
	return c, where, 0
}

// usingMachine reports whether --machine was given (even empty).
func (a *app) usingMachine() bool {
	return a.machine != "" || a.machineFlag != nil && a.machineFlag()
}

// attachMachine is `herdr --machine M`: the interactive client on the
// machine's server, as --remote.
func (a *app) attachMachine() int {
	p, err := a.machineProfile()
	if err != nil {
		return a.machineFail(err)
	}
	return a.remoteAttach(p.Target, saved.RemoteBridge(p.RemoteBin, p.RemoteSession))
}

// fleetFlag gives cmd --all-machines, which asks the local server for
// every saved machine's answer too ("machines":"all"); run gets the
// params to send.
func fleetFlag(cmd *cobra.Command, run func(params any) error) *cobra.Command {
	var all bool
	cmd.Flags().BoolVar(&all, "all-machines", false, "also every saved machine's (ids qualified as MACHINE/ID, each with \"machine\"; a lost machine's last known, \"stale\")")
	cmd.RunE = func(*cobra.Command, []string) error {
		if all {
			return run(protocol.FleetScope{Machines: protocol.MachinesAll})
		}
		return run(nil)
	}
	return cmd
}
