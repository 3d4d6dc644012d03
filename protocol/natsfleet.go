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

// CodeNotAllowed refuses a call from another member that the called
// member's [fleet] allow leaves out.
const CodeNotAllowed = "not_allowed"

// FleetEventsLost is the event a fleet subscriber (events.subscribe with
// "machines":"all") is given when the fleet's event stream no longer
// holds events this member had not read yet (its age or size bound
// dropped them while the member was down, or the hub lost its store:
// Reset): WantedSeq is the stream sequence it wanted, FirstSeq the one it
// got instead. The events from FirstSeq on follow.
type FleetEventsLost struct {
	Member    string `json:"member"`
	WantedSeq uint64 `json:"wanted_seq"`
	FirstSeq  uint64 `json:"first_seq"`
	Reset     bool   `json:"reset,omitempty"`
	Message   string `json:"message"`
}

// EventKind implements EventData.
func (FleetEventsLost) EventKind() string { return FleetEventsLostKind }

// FleetEventsLostKind is FleetEventsLost's kind.
const FleetEventsLostKind = "events_lost"

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
	// Allow is the member's [fleet] allow, what the others may call on
	// it ("read", methods); absent: everything.
	Allow []string `json:"allow,omitempty"`
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
