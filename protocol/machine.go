package protocol

import "strings"

// Saved machines seen by the server (an extension past Herdr 0.9, whose
// machines live only in its client): machine.list, the fleet scope
// ("machines":"all") of agent.list, session.snapshot and events.subscribe,
// and machine-qualified ids (fleet.go).

var machineMethods = []Method{
	{Name: "machine.list", Access: AccessRead, Extension: true, Params: empty, Result: "machine_list", Summary: "Saved machines with their connection state (extension)", Owner: OwnerMachines, Shape: ShapeAnswer, Browser: BrowserAllowed},
}

// Error codes of machine-qualified calls.
const (
	// CodeMachineNotFound: a qualified id names no saved, enabled machine.
	CodeMachineNotFound = "machine_not_found"
	// CodeMachineOffline: the machine is saved but its link is not online.
	CodeMachineOffline = "machine_offline"
)

// Machine states, as machine.list and machine_state_changed spell them.
const (
	MachineConnecting = "connecting"
	MachineOnline     = "online"
	// MachineAttention: the link cannot come up without a person (ssh
	// refused the key, the host key changed, no herdr there, another
	// protocol); retried slowly.
	MachineAttention = "attention"
	MachineOffline   = "offline"
	MachineDisabled  = "disabled"
)

// MachineRef names a machine in answers and events about remote things.
type MachineRef struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// MachineInfo is one entry of machine.list.
type MachineInfo struct {
	ID             string `json:"id"`
	Label          string `json:"label"`
	Target         string `json:"target"`
	Enabled        bool   `json:"enabled"`
	State          string `json:"state"`
	SinceMS        int64  `json:"since_ms"`
	LastContactMS  int64  `json:"last_contact_ms"`
	RemoteVersion  string `json:"remote_version,omitempty"`
	RemoteProtocol int    `json:"remote_protocol,omitempty"`
	Error          string `json:"error,omitempty"`
	Workspaces     int    `json:"workspaces"`
	Agents         int    `json:"agents"`
}

// MachineList is machine.list's result.
type MachineList struct {
	Machines []MachineInfo `json:"machines"`
}

// ResultType implements Result.
func (MachineList) ResultType() string { return "machine_list" }

// MachineStateChanged is the event of a machine's link changing state,
// delivered to fleet subscribers only.
type MachineStateChanged struct {
	Machine  MachineRef `json:"machine"`
	State    string     `json:"state"`
	Previous string     `json:"previous"`
	Error    string     `json:"error,omitempty"`
}

// EventKind implements EventData.
func (MachineStateChanged) EventKind() string { return "machine_state_changed" }

// FleetScope is embedded in the params of the methods that can answer for
// every machine: "machines":"all" asks for it, absent keeps the answer
// local, as Herdr's.
type FleetScope struct {
	Machines string `json:"machines,omitempty"`
}

// AllMachines reports whether the caller asked for the whole fleet.
func (f *FleetScope) AllMachines() bool { return f.Machines == MachinesAll }

// MachinesAll is the one value of "machines".
const MachinesAll = "all"

// Validate implements Params.
func (f *FleetScope) Validate() error {
	if f.Machines != "" && f.Machines != MachinesAll {
		return ParamError("machines", "expected %q, got %q", MachinesAll, f.Machines)
	}
	return nil
}

// Fleet is implemented by params that embed FleetScope.
type Fleet interface {
	AllMachines() bool
}

// FleetParams are the params of agent.list and session.snapshot.
type FleetParams struct {
	FleetScope
}

func fleetParams() Params { return &FleetParams{} }

// SplitQualified splits "<machine>/<id>" into its machine and the id the
// machine knows; ok is false for a local id (local ids never hold '/').
func SplitQualified(id string) (machine, local string, ok bool) {
	machine, local, ok = strings.Cut(id, "/")
	if !ok || machine == "" || local == "" {
		return "", id, false
	}
	return machine, local, true
}

// RemoteEvent is an event of another machine, its data already qualified
// (without its "type", which the encoder writes from Kind). The link
// decodes it once: Data is what subscribers are sent, Event the same
// data as its typed value for the actors of this server (nil for a kind
// this server does not know).
type RemoteEvent struct {
	Kind  string
	Data  []byte
	Event EventData
}

// EventKind implements EventData.
func (e RemoteEvent) EventKind() string { return e.Kind }

// MarshalJSON writes the data as it came.
func (e RemoteEvent) MarshalJSON() ([]byte, error) { return e.Data, nil }
