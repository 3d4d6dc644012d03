package protocol

// The web dashboard and pane recordings are extensions of the Herdr
// protocol. web.start and web.url are answered by the dashboard's actor;
// pane.record.* and pane.history by the pane itself.

// Error codes of the dashboard and of recordings.
const (
	CodeWebNotRunning  = "web_not_running"
	CodeWebStartFailed = "web_start_failed"
	CodeRecordFailed   = "pane_record_failed"
	CodeNotRecording   = "pane_not_recording"
	CodeHistoryOff     = "pane_history_off"
)

var webMethods = []Method{
	{Name: "web.start", Extension: true, Params: func() Params { return &WebStartParams{} }, Result: "web_started", Summary: "Serve the web dashboard (extension; [web] listen, else the address given)", Owner: OwnerWeb, Shape: ShapeAnswer},
	{Name: "web.url", Extension: true, Params: empty, Result: "web_started", Summary: "The web dashboard's address with its token (extension)", Owner: OwnerWeb, Shape: ShapeAnswer},
	{Name: "pane.record.start", Extension: true, Params: func() Params { return &PaneRecordStartParams{} }, Result: "pane_record_started", Summary: "Record a pane's output to an asciicast v2 file (extension)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.record.stop", Extension: true, Params: func() Params { return &PaneTarget{} }, Result: "pane_record_stopped", Summary: "Stop a pane's recording (extension)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.history", Access: AccessRead, Extension: true, Params: func() Params { return &PaneTarget{} }, Result: "pane_history", Summary: "A pane's recent output as asciicast v2, under [experimental] pane_history (extension)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
}

// WebStartParams are the params of web.start. Listen overrides [web]
// listen; a non-loopback address still needs [web] allow_remote.
type WebStartParams struct {
	Listen string `json:"listen,omitempty"`
	// Policy (extension, issue 49) asks for a token of its own that
	// carries this [[policy]]: the URL answered opens a page whose every
	// call the policy limits.
	Policy string `json:"policy,omitempty"`
}

// Validate implements Params.
func (p *WebStartParams) Validate() error { return nil }

// WebStarted answers web.start and web.url: where the dashboard listens
// and the URL that opens it, token included.
type WebStarted struct {
	Listen string `json:"listen"`
	URL    string `json:"url"`
	// Policy is the [[policy]] the URL's token carries ("" for the full
	// token): a CLI that asked for one refuses an answer without it (a
	// server older than policies ignores the request's policy).
	Policy string `json:"policy,omitempty"`
}

func (WebStarted) ResultType() string { return "web_started" }

// PaneRecordStartParams are the params of pane.record.start. Path is where
// the server writes the .cast file (absolute: the server's working
// folder is not the caller's); DurationMS, when set, ends the recording.
type PaneRecordStartParams struct {
	PaneID     string `json:"pane_id"`
	Path       string `json:"path"`
	DurationMS uint64 `json:"duration_ms,omitempty"`
}

// Validate implements Params.
func (p *PaneRecordStartParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	if err := required("path", p.Path); err != nil {
		return err
	}
	if !isAbsPath(p.Path) {
		return ParamError("path", "must be an absolute path, got %q", p.Path)
	}
	return nil
}

// TargetID implements Targeted.
func (p *PaneRecordStartParams) TargetID() string { return p.PaneID }

// isAbsPath accepts /unix, C:\windows and \\server paths whatever the
// platform the server runs on.
func isAbsPath(p string) bool {
	switch {
	case len(p) > 0 && (p[0] == '/' || p[0] == '\\'):
		return true
	case len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
		return true
	}
	return false
}

// PaneRecordStarted answers pane.record.start.
type PaneRecordStarted struct {
	PaneID string `json:"pane_id"`
	Path   string `json:"path"`
}

func (PaneRecordStarted) ResultType() string { return "pane_record_started" }

// PaneRecordStopped answers pane.record.stop with the recording that ran
// last: Ended says why it ended (stopped, duration, exited, overflow or
// error, with Error).
type PaneRecordStopped struct {
	PaneID string `json:"pane_id"`
	Path   string `json:"path"`
	Events int    `json:"events"`
	Bytes  int64  `json:"bytes"`
	Ended  string `json:"ended"`
	Error  string `json:"error,omitempty"`
}

func (PaneRecordStopped) ResultType() string { return "pane_record_stopped" }

// PaneHistory answers pane.history: the pane's kept output as one
// asciicast v2 document (header line, then one event per line).
type PaneHistory struct {
	PaneID string `json:"pane_id"`
	Cast   string `json:"cast"`
}

func (PaneHistory) ResultType() string { return "pane_history" }
