package protocol

// The fleet on NATS JetStream (issue 48; an extension): a server with a
// [fleet] section joins a NATS system as a member, named like a saved
// machine, so "alpha/w1:p2" names member alpha's pane as it would a saved
// machine's (the saved machine wins when both have the name). fleet.status
// lists the members the presence bucket holds and this server's link to
// the NATS servers (the hub).

var natsFleetMethods = []Method{
	{Name: "fleet.status", Extension: true, Pipeline: true, CLI: "fleet status", CLIHelp: ". A table of the members and a line for the hub at a terminal; the JSON response line (fleet_status) with --json or when piped.", Params: empty, Answer: FleetStatus{}, Summary: "The fleet's members on NATS and this server's link to its hub (extension)", Owner: OwnerFleet, Shape: ShapeAnswer},
}

// Fleet member states, as fleet.status spells them: a member is online
// while its presence entry is kept alive, offline once it was not for
// longer than the presence TTL (its entry then expires and it drops from
// the list).
const (
	FleetMemberOnline  = "online"
	FleetMemberOffline = "offline"
)

// Hub link states, as fleet.status spells them. "off" is a server without
// a [fleet] section.
const (
	FleetHubOff          = "off"
	FleetHubConnecting   = "connecting"
	FleetHubConnected    = "connected"
	FleetHubDisconnected = "disconnected"
)

// FleetMember is one member of fleet.status.
type FleetMember struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Labels  []string `json:"labels"`
	State   string   `json:"state"`
	// StartedMS is when the member's server started; LastContactMS when
	// its presence entry was last written (the NATS server's clock).
	StartedMS     int64 `json:"started_ms"`
	LastContactMS int64 `json:"last_contact_ms"`
	// Self marks this server.
	Self bool `json:"self,omitempty"`
}

// FleetHub is this server's link to the NATS servers: the state, the
// server it is connected to, the last error (wrong credentials, refused,
// TLS) while it is not, and the embedded hub this server runs, if any.
type FleetHub struct {
	State     string `json:"state"`
	Name      string `json:"name,omitempty"`
	URL       string `json:"url,omitempty"`
	Error     string `json:"error,omitempty"`
	SinceMS   int64  `json:"since_ms,omitempty"`
	Embedded  bool   `json:"embedded"`
	Listen    string `json:"listen,omitempty"`
	Clustered bool   `json:"clustered,omitempty"`
	// EmbeddedError is why the embedded hub did not start.
	EmbeddedError string `json:"embedded_error,omitempty"`
}

// FleetStatus is fleet.status's result.
type FleetStatus struct {
	Members []FleetMember `json:"members"`
	Hub     FleetHub      `json:"hub"`
}

// ResultType implements Result.
func (FleetStatus) ResultType() string { return "fleet_status" }
