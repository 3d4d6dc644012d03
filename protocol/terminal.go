package protocol

// The terminal stream is Herdr's `herdr terminal …` surface carried over
// this socket API. Herdr speaks it on its binary client socket; here the
// CLI builds it from screen.subscribe frames and prints Herdr's lines:
//
//	{"type":"terminal.frame","seq":1,"encoding":"ansi","width":120,"height":40,"full":true,"bytes":"<base64>"}
//	{"type":"terminal.closed","reason":"terminal term_3 exited"}
//
// A controller (`terminal session control`, `terminal attach`) first
// claims the terminal with terminal.claim: one controller per terminal,
// another one is refused unless it takes over, and the one taken over
// from is told with a terminal.taken_over line on its connection.

// Lines of the terminal stream.
const (
	TerminalFrameType   = "terminal.frame"
	TerminalClosedType  = "terminal.closed"
	TerminalTakenOver   = "terminal.taken_over"
	TerminalDefaultCols = 120
	TerminalDefaultRows = 40
)

var terminalMethods = []Method{
	{Name: "terminal.claim", Extension: true, Params: func() Params { return &TerminalClaimParams{} }, Result: "terminal_claimed", Summary: "Become the one controller of a terminal for the life of this connection (extension)", Owner: OwnerClients, Shape: ShapeAnswer},
}

// TerminalClaimParams are the params of terminal.claim.
type TerminalClaimParams struct {
	TerminalID string `json:"terminal_id"`
	Takeover   bool   `json:"takeover,omitempty"`
}

// Validate implements Params.
func (p *TerminalClaimParams) Validate() error { return required("terminal_id", p.TerminalID) }

// TerminalClaimed answers terminal.claim.
type TerminalClaimed struct {
	TerminalID string `json:"terminal_id"`
	// TookOver is true when another controller was displaced.
	TookOver bool `json:"took_over"`
}

func (TerminalClaimed) ResultType() string { return "terminal_claimed" }

// TerminalFrame is a terminal.frame line: Bytes (base64) redraw Width ×
// Height cells; Full frames repaint everything, others only changed rows.
type TerminalFrame struct {
	Type     string `json:"type"`
	Seq      uint64 `json:"seq"`
	Encoding string `json:"encoding"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Full     bool   `json:"full"`
	Bytes    string `json:"bytes"`
}

// TerminalClosed is the terminal.closed line that ends a stream.
type TerminalClosed struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}
